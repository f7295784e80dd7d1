import type { Model, ModelResponse, ToolCall } from "./model.js";

/*
 * The tool loop's GenAI spans (OpenTelemetry GenAI semantic conventions): `invoke_agent` around a run,
 * `chat {model}` around each model call and `execute_tool {name}` around each tool call, so the MCP
 * client span of a tool call (made by @mcpkit/client inside it) and the server's span below it are one
 * trace with the model calls. `@opentelemetry/api` is an optional peer, used through structural types.
 */

type Attributes = Record<string, string | number | boolean>;

interface Span {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** The `@opentelemetry/api` module, as far as the tool loop uses it. */
export interface ToolLoopOpenTelemetryApi {
  trace: {
    getTracer(
      name: string,
      version?: string,
    ): {
      startSpan(name: string, options?: { kind?: number; attributes?: Attributes }, context?: unknown): Span;
    };
    setSpan(context: unknown, span: Span): unknown;
  };
  context: {
    active(): unknown;
    with<R>(context: unknown, fn: () => R): R;
  };
}

/**
 * OpenTelemetry for a run: omitted, `@opentelemetry/api` is used when installed (no SDK registered: a
 * few no-op calls per step); `false` turns it off; `{ api, tracerProvider }` chooses what to use.
 */
export type ToolLoopTelemetryOption =
  | false
  | {
      api?: ToolLoopOpenTelemetryApi;
      tracerProvider?: { getTracer: ToolLoopOpenTelemetryApi["trace"]["getTracer"] };
      /** `gen_ai.agent.name`: names the run's span `invoke_agent {name}`. */
      agentName?: string;
    };

const SPECIFIER = "@opentelemetry/api";
let loading: Promise<ToolLoopOpenTelemetryApi | undefined> | undefined;

function loadApi(): Promise<ToolLoopOpenTelemetryApi | undefined> {
  loading ??= (
    import(/* webpackIgnore: true */ /* @vite-ignore */ SPECIFIER) as Promise<Record<string, unknown>>
  ).then(
    (m) => (m.trace ? m : m.default) as ToolLoopOpenTelemetryApi | undefined,
    () => undefined,
  );
  return loading;
}

const INTERNAL = 0;
const CLIENT = 2;
const ERROR = 2;

/** The spans of one run; made by {@link loopTelemetry}. */
export class LoopTelemetry {
  readonly #api: ToolLoopOpenTelemetryApi;
  readonly #tracer: ReturnType<ToolLoopOpenTelemetryApi["trace"]["getTracer"]>;
  readonly #agentName: string | undefined;

  constructor(api: ToolLoopOpenTelemetryApi, option: Exclude<ToolLoopTelemetryOption, false> | undefined) {
    this.#api = api;
    this.#tracer = (option?.tracerProvider ?? api.trace).getTracer("@mcpkit/tool-loop", "0.1.0");
    this.#agentName = option?.agentName;
  }

  /** Runs `fn` inside a span; a throw sets `error.type` (the error's name) and the status, and passes on. */
  async #within<R>(
    name: string,
    kind: number,
    attributes: Attributes,
    fn: () => Promise<R>,
    after?: (span: Span, value: R) => void,
  ): Promise<R> {
    const api = this.#api;
    const parent = api.context.active();
    const span = this.#tracer.startSpan(name, { kind, attributes }, parent);
    try {
      const value = await api.context.with(api.trace.setSpan(parent, span), fn);
      after?.(span, value);
      return value;
    } catch (error) {
      span.setAttribute("error.type", error instanceof Error ? error.name : "_OTHER");
      span.setStatus({ code: ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  }

  /** The run: `invoke_agent` (INTERNAL: the agent runs in this process). */
  run<R>(fn: () => Promise<R>): Promise<R> {
    const name = this.#agentName === undefined ? "invoke_agent" : `invoke_agent ${this.#agentName}`;
    const attributes: Attributes = { "gen_ai.operation.name": "invoke_agent" };
    if (this.#agentName !== undefined) attributes["gen_ai.agent.name"] = this.#agentName;
    return this.#within(name, INTERNAL, attributes, fn);
  }

  /** One model call: `chat {gen_ai.request.model}` (CLIENT), with what the model says it is. */
  chat(model: Model, fn: () => Promise<ModelResponse>): Promise<ModelResponse> {
    const info = model as { provider?: unknown; modelId?: unknown };
    const attributes: Attributes = { "gen_ai.operation.name": "chat" };
    if (typeof info.provider === "string") attributes["gen_ai.provider.name"] = info.provider;
    const id = typeof info.modelId === "string" ? info.modelId : undefined;
    if (id !== undefined) attributes["gen_ai.request.model"] = id;
    return this.#within(
      id === undefined ? "chat" : `chat ${id}`,
      CLIENT,
      attributes,
      fn,
      (span, response) => {
        const reason = response.toolCalls.length > 0 ? "tool_calls" : "stop";
        span.setAttribute("gen_ai.response.finish_reasons", reason);
      },
    );
  }

  /** One tool call: `execute_tool {gen_ai.tool.name}` (INTERNAL); an error result is `tool_error`. */
  tool<R extends { readonly isError?: boolean | undefined }>(
    call: ToolCall,
    fn: () => Promise<R>,
  ): Promise<R> {
    const attributes: Attributes = {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": call.name,
      "gen_ai.tool.type": "extension",
    };
    if (call.id !== undefined) attributes["gen_ai.tool.call.id"] = call.id;
    return this.#within(`execute_tool ${call.name}`, INTERNAL, attributes, fn, (span, result) => {
      if (!result.isError) return;
      span.setAttribute("error.type", "tool_error");
      span.setStatus({ code: ERROR });
    });
  }
}

/** The telemetry of a run with `option`, or `undefined` when off or the API is not installed. */
export async function loopTelemetry(
  option: ToolLoopTelemetryOption | undefined,
): Promise<LoopTelemetry | undefined> {
  if (option === false) return undefined;
  const api = option?.api ?? (await loadApi());
  return api === undefined ? undefined : new LoopTelemetry(api, option);
}
