import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  aggregateTools,
  createScriptedModel,
  type LoopEvent,
  type LoopMessage,
  type LoopStep,
  type Model,
  runToolLoop,
  type ToolApproval,
  type ToolCall,
  type ToolCallInfo,
} from "@mcpkit/tool-loop";
import { connect, type RunningServer, serve } from "mcpkit";
import { createTravelServer } from "./travel-server.js";

/** Where the demo's lines go; tests pass their own. */
export interface DemoOutput {
  write(line: string): void;
  /** A piece of streamed text, without a line end. Default: appended to the next `write`. */
  stream?(text: string): void;
}

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** The user's request. */
  prompt?: string;
  /** The model; default: a provider when its key is set, else the embedded scripted model. */
  model?: Model;
  /** Environment to look for API keys in. Default `process.env`. */
  env?: Record<string, string | undefined>;
  out?: DemoOutput;
  /** The command that starts the everything server over stdio. Default: its built entry. */
  everythingCommand?: string[];
  /** Stream the model's text and the tool events as they happen (default true); false prints per step. */
  stream?: boolean;
  /**
   * Asks the user a yes/no question (the approval of a destructive tool). Without it, or with `yes`,
   * destructive tools run without asking (the demo passes one only on a terminal).
   */
  confirm?: (question: string) => Promise<boolean>;
  /** Approve every tool call without asking (`--yes`). */
  yes?: boolean;
}

const DEFAULT_PROMPT =
  "I'm flying to Lisbon tomorrow. What will the weather be, what should I pack, and can you echo 'bon voyage' back to me?";

/**
 * The embedded model: no keys, no network. It calls one tool on each server in its first turn, one
 * more once it knows the weather, then answers from what the tools returned.
 */
export function createDemoModel(): Model {
  return createScriptedModel([
    {
      text: "Let me check the forecast and echo your message.",
      toolCalls: [
        { name: "travel__get_forecast", arguments: { city: "Lisbon" } },
        { name: "everything__echo", arguments: { message: "bon voyage" } },
      ],
    },
    (request) => {
      const forecast = lastResult(request.messages, "travel__get_forecast");
      const condition = (JSON.parse(forecast) as { condition?: string }).condition ?? "sunny";
      return {
        text: "Now the packing list for that weather.",
        toolCalls: [{ id: "call_pack", name: "travel__packing_list", arguments: { condition } }],
      };
    },
    (request) => {
      const forecast = JSON.parse(lastResult(request.messages, "travel__get_forecast")) as {
        city: string;
        condition: string;
        highC: number;
        lowC: number;
      };
      const packing = lastResult(request.messages, "travel__packing_list");
      const echo = lastResult(request.messages, "everything__echo");
      return {
        text: `${forecast.city} tomorrow: ${forecast.condition}, ${forecast.lowC}–${forecast.highC} °C. Pack: ${packing}. The echo server says: "${echo}".`,
        toolCalls: [],
      };
    },
  ]);
}

function lastResult(messages: readonly LoopMessage[], tool: string): string {
  const callIds = new Set<string>();
  for (const m of messages) {
    if (m.role === "assistant")
      for (const call of m.toolCalls ?? []) if (call.name === tool) callIds.add(call.id);
  }
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "tool" && callIds.has(m.toolCallId)) return m.content;
  }
  throw new Error(`the model has not seen a result of ${tool}`);
}

/** Picks a real provider when its key is set (OpenAI first, then Anthropic), else the embedded model. */
export async function pickModel(
  env: Record<string, string | undefined>,
): Promise<{ model: Model; label: string }> {
  if (env.OPENAI_API_KEY) {
    const { default: OpenAI } = await import("openai");
    const { createOpenAIChatModel } = await import("@mcpkit/bridge-openai");
    const name = env.OPENAI_MODEL ?? "gpt-4o-mini";
    return {
      model: createOpenAIChatModel({
        client: new OpenAI({
          apiKey: env.OPENAI_API_KEY,
          ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
        }) as never,
        model: name,
      }),
      label: `OpenAI ${name}`,
    };
  }
  if (env.ANTHROPIC_API_KEY) {
    const { default: Anthropic } = await import("@anthropic-ai/sdk");
    const { createAnthropicModel } = await import("@mcpkit/bridge-anthropic");
    const name = env.ANTHROPIC_MODEL ?? "claude-sonnet-4-5";
    return {
      model: createAnthropicModel({
        client: new Anthropic({
          apiKey: env.ANTHROPIC_API_KEY,
          ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
        }) as never,
        model: name,
      }),
      label: `Anthropic ${name}`,
    };
  }
  return {
    model: createDemoModel(),
    label: "the embedded scripted model (set OPENAI_API_KEY or ANTHROPIC_API_KEY for a real one)",
  };
}

function everythingCommand(): string[] {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("@mcpkit/everything-server/package.json");
  return [process.execPath, join(dirname(manifest), "dist", "main.js"), "stdio"];
}

/**
 * The demo's approval policy: tools that say they are destructive (`destructiveHint: true`) are put to
 * the user through `confirm`; everything else, and everything when there is no one to ask, runs.
 */
export function demoApprover(
  confirm: ((question: string) => Promise<boolean>) | undefined,
): (call: ToolCall, info: ToolCallInfo) => Promise<ToolApproval> {
  return async (call, info) => {
    if (!confirm || info.annotations?.destructiveHint !== true) return "allow";
    const allowed = await confirm(
      `Allow ${info.server ?? "?"}/${info.tool} (destructive) with ${JSON.stringify(call.arguments)}? [y/N] `,
    );
    return allowed ? "allow" : { deny: "the user said no at the prompt" };
  };
}

/** Prints a run's events as they come: text as it streams, then each call and its result. */
function streamPrinter(out: DemoOutput): (event: LoopEvent) => void {
  let open = "";
  const flush = () => {
    if (open !== "") out.write(open);
    open = "";
  };
  const piece = (text: string) => {
    if (out.stream) {
      if (open === "") out.stream("assistant: ");
      out.stream(text);
      open = " ";
      return;
    }
    open = open === "" ? `assistant: ${text}` : `${open}${text}`;
  };
  return (event) => {
    switch (event.type) {
      case "text-delta":
        piece(event.text);
        break;
      case "tool-call":
        if (out.stream && open !== "") out.stream("\n");
        else flush();
        open = "";
        out.write(
          `  → ${event.call.name}(${JSON.stringify(event.call.arguments)})${event.approval === "denied" ? " [denied]" : ""}`,
        );
        break;
      case "tool-result": {
        const text = event.result.content;
        out.write(
          `  ← ${event.result.isError ? "error: " : ""}${text.length > 160 ? `${text.slice(0, 157)}...` : text}`,
        );
        break;
      }
      case "step-finish":
      case "finish":
        if (out.stream && open !== "") out.stream("\n");
        else flush();
        open = "";
        break;
    }
  };
}

function show(out: DemoOutput, step: LoopStep): void {
  const { response, toolResults } = step;
  if (response.text) out.write(`assistant: ${response.text}`);
  for (const call of response.toolCalls) out.write(`  → ${call.name}(${JSON.stringify(call.arguments)})`);
  for (const result of toolResults) {
    const text = result.content.length > 160 ? `${result.content.slice(0, 157)}...` : result.content;
    out.write(`  ← ${result.isError ? "error: " : ""}${text}`);
  }
}

/**
 * Runs the demo: the everything server over stdio, the travel desk over HTTP, their tools aggregated
 * under prefixes, and a tool loop answering the prompt. Returns the final answer; closes everything.
 */
export async function runDemo(
  options: DemoOptions = {},
): Promise<{ text: string; steps: readonly LoopStep[] }> {
  const out = options.out ?? { write: (line: string) => console.log(line) };
  const env = options.env ?? process.env;
  const prompt = options.prompt ?? DEFAULT_PROMPT;
  let travelHttp: RunningServer | undefined;
  const closers: Array<() => Promise<void>> = [];
  try {
    const [command, ...args] = options.everythingCommand ?? everythingCommand();
    const everything = await connect({ command: command!, args }, { name: "agent-demo", stderr: "ignore" });
    closers.push(() => everything.close());
    out.write(
      `connected: ${everything.serverInfo?.name} over stdio (${everything.era} era, ${everything.protocolVersion})`,
    );

    travelHttp = await serve(createTravelServer(), {
      transport: "http",
      port: 0,
      block: false,
      onListening: () => {},
    });
    const travel = await connect(travelHttp.url, { name: "agent-demo" });
    closers.push(() => travel.close());
    out.write(
      `connected: ${travel.serverInfo?.name} over HTTP at ${travelHttp.url} (${travel.era} era, ${travel.protocolVersion})`,
    );

    const tools = await aggregateTools({ everything, travel });
    out.write(
      `tools: ${tools.tools.length} from 2 servers (${tools.tools
        .filter((t) => t.name.startsWith("travel__"))
        .map((t) => t.name)
        .join(", ")}, …)`,
    );

    const { model, label } = options.model
      ? { model: options.model, label: "the given model" }
      : await pickModel(env);
    out.write(`model: ${label}`);
    out.write("");
    out.write(`user: ${prompt}`);
    const streaming = options.stream ?? true;
    const result = await runToolLoop({
      model,
      tools,
      maxSteps: 8,
      approve: demoApprover(options.yes ? undefined : options.confirm),
      ...(streaming ? { onEvent: streamPrinter(out) } : { onStep: (step: LoopStep) => show(out, step) }),
      messages: [
        {
          role: "system",
          content: "You are a travel assistant. Use the tools; answer in one short paragraph.",
        },
        { role: "user", content: prompt },
      ],
    });
    out.write("");
    out.write(`(finished: ${result.finishReason}, ${result.steps.length} model calls)`);
    return { text: result.text, steps: result.steps };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {});
    await travelHttp?.close();
  }
}
