import type {
  InboundWatch,
  JsonRpcErrorObject,
  JsonRpcId,
  MessageInfo,
  OutboundWatch,
  PeerObserver,
} from "@mcpkit/jsonrpc";
import { MetaKey } from "./meta.js";
import { loadOpenTelemetry } from "./otel-api.js";
import { SessionIdAttribute } from "./session-id-attribute.js";

/*
 * OpenTelemetry for MCP, per the semantic conventions for MCP (OpenTelemetry GenAI conventions, "Model
 * Context Protocol" page): spans `{mcp.method.name} {target}`, `mcp.*` attributes, W3C trace context in
 * `params._meta`, and the operation and session duration histograms. Only `@opentelemetry/api` is used,
 * through the structural types below (no type import: nobody without OpenTelemetry installs anything).
 */

/** Attribute values as OpenTelemetry takes them. */
export type TelemetryAttributes = Record<string, string | number | boolean>;

/** The span of `@opentelemetry/api`, as far as mcpkit uses it. */
export interface OtelSpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: unknown): unknown;
  spanContext(): { traceId: string; spanId: string; traceFlags: number };
  isRecording(): boolean;
  end(): void;
}

/** The tracer of `@opentelemetry/api`, as far as mcpkit uses it. */
export interface OtelTracer {
  startSpan(
    name: string,
    options?: {
      kind?: number;
      attributes?: TelemetryAttributes;
      links?: { context: ReturnType<OtelSpan["spanContext"]> }[];
    },
    context?: unknown,
  ): OtelSpan;
}

/** The histogram of `@opentelemetry/api`, as far as mcpkit uses it. */
export interface OtelHistogram {
  record(value: number, attributes?: TelemetryAttributes): void;
}

/** The meter of `@opentelemetry/api`, as far as mcpkit uses it. */
export interface OtelMeter {
  createHistogram(
    name: string,
    options?: { unit?: string; description?: string; advice?: { explicitBucketBoundaries?: number[] } },
  ): OtelHistogram;
}

/** A `TracerProvider` (an SDK's, or the global one). */
export interface OtelTracerProvider {
  getTracer(name: string, version?: string): OtelTracer;
}

/** A `MeterProvider` (an SDK's, or the global one). */
export interface OtelMeterProvider {
  getMeter(name: string, version?: string): OtelMeter;
}

/** The `@opentelemetry/api` module, as far as mcpkit uses it: pass `import * as api from "@opentelemetry/api"`. */
export interface OpenTelemetryApi {
  trace: OtelTracerProvider & {
    /** The global provider: a proxy whose `getDelegate()` tells whether an SDK is registered. */
    getTracerProvider?(): unknown;
    getSpan(context: unknown): OtelSpan | undefined;
    setSpan(context: unknown, span: OtelSpan): unknown;
    isSpanContextValid(spanContext: ReturnType<OtelSpan["spanContext"]>): boolean;
  };
  context: {
    active(): unknown;
    with<A extends unknown[], R>(context: unknown, fn: (...args: A) => R, thisArg?: unknown, ...args: A): R;
  };
  propagation: {
    inject(context: unknown, carrier: Record<string, unknown>): void;
    extract(context: unknown, carrier: Record<string, unknown>): unknown;
  };
  metrics: OtelMeterProvider;
  createNoopMeter?: () => OtelMeter;
  /** Present in API 1.x: a fresh proxy's delegate is the no-op provider (how "no SDK" is told apart). */
  ProxyTracerProvider?: new () => { getDelegate(): unknown };
}

/**
 * How a client or server takes part in OpenTelemetry. Omitted: `@opentelemetry/api` is loaded if the app
 * has it installed, and its global providers are used (no SDK registered: a few no-op calls per message).
 * `false`: nothing at all. An object: its `api` instead of loading one, its providers instead of the globals.
 */
export type TelemetryOption =
  | false
  | {
      /** The `@opentelemetry/api` module (default: imported on first connect if installed). */
      api?: OpenTelemetryApi;
      /** Default: the API's global tracer provider. */
      tracerProvider?: OtelTracerProvider;
      /** Default: the API's global meter provider, read once when the client or server first connects. */
      meterProvider?: OtelMeterProvider;
      /**
       * Put the raw `Mcp-Session-Id` in the `mcp.session.id` span attribute. Default false: the attribute
       * holds `sha256:` and the first 32 hex digits of its SHA-256, which tells spans of one session
       * apart but cannot be sent back as a session id (anyone who reads the traces could otherwise join
       * the session).
       */
      rawSessionId?: boolean;
    };

/** SpanKind and SpanStatusCode values of the API (stable numbers of the OpenTelemetry specification). */
const KIND_INTERNAL = 0;
const KIND_SERVER = 1;
const KIND_CLIENT = 2;
const STATUS_ERROR = 2;

/** The bucket boundaries the conventions give the four MCP duration histograms, in seconds. */
export const MCP_DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** What a peer's observer knows of its connection, read when a message passes. */
export interface ConnectionFacts {
  /** `network.transport`, `network.protocol.name`, `server.address` / `server.port` (client side). */
  readonly network: TelemetryAttributes;
  /** The protocol version in force (a legacy session's; a modern request names its own in `_meta`). */
  protocolVersion(): string | undefined;
  /** The `Mcp-Session-Id` of a legacy HTTP session; inbound messages also look in `info.sessionId`. */
  sessionId(): string | undefined;
}

const now: () => number =
  typeof performance !== "undefined" && typeof performance.now === "function"
    ? () => performance.now()
    : () => Date.now();

type Params = Record<string, unknown> | unknown[] | undefined;

/** `error.type` of a local failure (no wire code): a timeout, an abort, a closed connection. */
export function errorType(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === "TimeoutError") return "timeout";
    if (error.name === "AbortError") return "cancelled";
    return error.name === "Error" ? "_OTHER" : error.name;
  }
  return "_OTHER";
}

/**
 * The OpenTelemetry side of one client or server: its tracer and histograms, resolved once. It makes the
 * {@link PeerObserver} of each connection and records session durations. With no SDK registered (the
 * global tracer provider without a delegate and the no-op meter) a connection gets no observer at all: its
 * peer pays nothing per message. Whether an SDK is there is asked again for each new connection, so one
 * registered after the first connect is used from the next connection on.
 */
export class McpTelemetry {
  readonly api: OpenTelemetryApi;
  readonly tracer: OtelTracer;
  readonly #operation: OtelHistogram;
  readonly #session: OtelHistogram;
  /** Which end this is: `client` spans out and `server` spans in are made by both ends alike. */
  readonly side: "client" | "server";
  /** False when the meter is the API's no-op one: attributes for metrics are then never built. */
  readonly metering: boolean;
  /** Spans carry the raw session id (`TelemetryOption.rawSessionId`); otherwise its hash. */
  readonly rawSessionId: boolean;
  /** The no-op provider the global proxy delegates to without an SDK; undefined when that cannot be told. */
  readonly #noSdk: unknown;
  /** The span context of each operation's first request (`RequestOptions.operation`), for links. */
  readonly firstSpans = new WeakMap<object, ReturnType<OtelSpan["spanContext"]>>();

  constructor(
    api: OpenTelemetryApi,
    side: "client" | "server",
    name: string,
    version: string,
    option?: TelemetryOption,
  ) {
    this.api = api;
    this.side = side;
    const o = option === false ? undefined : option;
    this.rawSessionId = o?.rawSessionId === true;
    this.tracer = (o?.tracerProvider ?? api.trace).getTracer(name, version);
    const meter = (o?.meterProvider ?? api.metrics).getMeter(name, version);
    const advice = { explicitBucketBoundaries: MCP_DURATION_BUCKETS };
    this.#operation = meter.createHistogram(`mcp.${side}.operation.duration`, {
      unit: "s",
      description:
        side === "client"
          ? "The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received."
          : "MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.",
      advice,
    });
    this.#session = meter.createHistogram(`mcp.${side}.session.duration`, {
      unit: "s",
      description: `The duration of the MCP session as observed on the MCP ${side}.`,
      advice,
    });
    const noop = api.createNoopMeter?.();
    this.metering =
      noop === undefined || meter.constructor !== noop.constructor || o?.meterProvider !== undefined;
    // A tracer provider passed in is used as is; the global one is a proxy whose delegate, without an SDK,
    // is the same no-op provider a fresh proxy has.
    const ProxyProvider = api.ProxyTracerProvider;
    this.#noSdk =
      o?.tracerProvider === undefined && ProxyProvider !== undefined
        ? new ProxyProvider().getDelegate()
        : undefined;
  }

  /**
   * False when nothing would be recorded nor propagated: no tracer SDK registered globally and no meter.
   * A few calls; asked once per connection, never per message.
   */
  get active(): boolean {
    if (this.metering || this.#noSdk === undefined) return true;
    const global = this.api.trace.getTracerProvider?.() as { getDelegate?(): unknown } | undefined;
    return global?.getDelegate?.() !== this.#noSdk;
  }

  /** The observer of one connection's peer, or `undefined` when {@link active} is false. */
  observer(facts: ConnectionFacts): PeerObserver | undefined {
    return this.active ? new McpObserver(this, facts, this.#operation) : undefined;
  }

  /** Records `mcp.{side}.session.duration` for a session that started at `started` (a {@link now} reading). */
  endSession(started: number, facts: ConnectionFacts, error?: unknown): void {
    if (!this.metering) return;
    const attributes = Object.assign({}, facts.network);
    const version = facts.protocolVersion();
    if (version !== undefined) attributes["mcp.protocol.version"] = version;
    if (error !== undefined) attributes["error.type"] = errorType(error);
    this.#session.record((now() - started) / 1000, attributes);
  }

  /** A clock reading for {@link endSession}. */
  static now(): number {
    return now();
  }
}

/** The low-cardinality attributes of one message (those that metrics carry too) and its span name. */
function describe(
  method: string,
  params: Params,
  facts: ConnectionFacts,
  meta: Record<string, unknown> | undefined,
): { name: string; attributes: TelemetryAttributes; uri: string | undefined } {
  const attributes: TelemetryAttributes = Object.assign({ "mcp.method.name": method }, facts.network);
  let name = method;
  let uri: string | undefined;
  const p = params !== undefined && !Array.isArray(params) ? params : undefined;
  if (p !== undefined) {
    if (method === "tools/call" && typeof p.name === "string") {
      attributes["gen_ai.tool.name"] = p.name;
      attributes["gen_ai.operation.name"] = "execute_tool";
      name = `${method} ${p.name}`;
    } else if (method === "prompts/get" && typeof p.name === "string") {
      attributes["gen_ai.prompt.name"] = p.name;
      name = `${method} ${p.name}`;
    } else if (typeof p.uri === "string") {
      uri = p.uri;
    }
  }
  const version = meta?.[MetaKey.ProtocolVersion];
  const v = typeof version === "string" ? version : facts.protocolVersion();
  if (v !== undefined) attributes["mcp.protocol.version"] = v;
  return { name, attributes, uri };
}

function metaOf(params: Params): Record<string, unknown> | undefined {
  if (params === undefined || Array.isArray(params)) return undefined;
  const meta = params._meta;
  return typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>) : undefined;
}

/** Copies `params` with the trace context of `context` added to its `_meta` (never mutates the caller's). */
function inject(api: OpenTelemetryApi, context: unknown, params: Params): Params {
  const carrier: Record<string, unknown> = {};
  api.propagation.inject(context, carrier);
  // A loop that returns at once: the cheapest "has any key" test.
  for (const _ in carrier) {
    const base = params !== undefined && !Array.isArray(params) ? params : {};
    const meta = Object.assign({}, base._meta as Record<string, unknown> | undefined, carrier);
    const copy = Object.assign({}, base);
    copy._meta = meta;
    return copy;
  }
  return params;
}

/** Sets `error.type` (and the JSON-RPC code, status) on the span and the metric attributes. */
function failWith(
  span: OtelSpan | undefined,
  attributes: TelemetryAttributes,
  type: string,
  code: number | undefined,
  message: string | undefined,
): void {
  attributes["error.type"] = type;
  if (code !== undefined) attributes["rpc.response.status_code"] = String(code);
  if (span === undefined) return;
  span.setAttribute("error.type", type);
  if (code !== undefined) span.setAttribute("rpc.response.status_code", String(code));
  span.setStatus(message === undefined ? { code: STATUS_ERROR } : { code: STATUS_ERROR, message });
}

/** A `CallToolResult` with `isError: true` is an error of its kind: `tool_error`. */
function isToolError(method: string, result: unknown): boolean {
  return (
    method === "tools/call" &&
    typeof result === "object" &&
    result !== null &&
    (result as { isError?: unknown }).isError === true
  );
}

class OutboundSpan implements OutboundWatch {
  constructor(
    readonly params: Params,
    private readonly telemetry: McpTelemetry,
    private readonly histogram: OtelHistogram,
    private readonly method: string,
    private readonly span: OtelSpan | undefined,
    private readonly attributes: TelemetryAttributes,
    private readonly started: number,
  ) {}

  end(result: unknown, error: unknown): void {
    const span = this.span;
    const attributes = this.attributes;
    if (error !== undefined) {
      const code = (error as { code?: unknown }).code;
      const wire = typeof code === "number" && (error as Error).name !== "TimeoutError";
      failWith(
        span,
        attributes,
        wire ? String(code) : errorType(error),
        wire ? code : undefined,
        (error as Error).message,
      );
    } else if (isToolError(this.method, result)) {
      failWith(span, attributes, "tool_error", undefined, undefined);
    }
    span?.end();
    if (this.telemetry.metering) this.histogram.record((now() - this.started) / 1000, attributes);
  }
}

class InboundSpan implements InboundWatch {
  constructor(
    private readonly telemetry: McpTelemetry,
    private readonly histogram: OtelHistogram,
    private readonly method: string,
    private readonly span: OtelSpan,
    private readonly context: unknown,
    private readonly attributes: TelemetryAttributes,
    private readonly started: number,
  ) {}

  run<A, B, R>(fn: (a: A, b: B) => R, a: A, b: B): R {
    return this.telemetry.api.context.with(this.context, fn, undefined, a, b);
  }

  end(result: unknown, error: JsonRpcErrorObject | undefined): void {
    const span = this.span;
    const recording = span.isRecording() ? span : undefined;
    if (error !== undefined) {
      failWith(recording, this.attributes, String(error.code), error.code, error.message);
    } else if (isToolError(this.method, result)) {
      failWith(recording, this.attributes, "tool_error", undefined, undefined);
    }
    span.end();
    if (this.telemetry.metering) this.histogram.record((now() - this.started) / 1000, this.attributes);
  }
}

/** The {@link PeerObserver} of one connection: client spans out, server spans in, context in `_meta`. */
class McpObserver implements PeerObserver {
  private readonly sessionAttribute: SessionIdAttribute;

  constructor(
    private readonly telemetry: McpTelemetry,
    private readonly facts: ConnectionFacts,
    private readonly histogram: OtelHistogram,
  ) {
    this.sessionAttribute = new SessionIdAttribute(telemetry.rawSessionId);
  }

  /** The request's id, resource URI and session on a recording span (outbound and inbound alike). */
  private setRequestAttributes(
    span: OtelSpan,
    id: unknown,
    uri: string | undefined,
    session: string | undefined,
  ): void {
    if (id !== undefined) span.setAttribute("jsonrpc.request.id", String(id));
    if (uri !== undefined) span.setAttribute("mcp.resource.uri", uri);
    if (session !== undefined) span.setAttribute("mcp.session.id", this.sessionAttribute.of(session));
  }

  requestOut(
    method: string,
    params: Params,
    id: JsonRpcId,
    operation?: object | undefined,
  ): OutboundWatch | undefined {
    return this.out(method, params, id, operation);
  }

  notificationOut(method: string, params: Params): Params {
    const watch = this.out(method, params, undefined, undefined);
    if (watch === undefined) return params;
    // A notification has no answer: its span covers the hand-over to the transport.
    watch.end(undefined, undefined);
    return watch.params;
  }

  requestIn(
    method: string,
    params: Params,
    id: JsonRpcId,
    info: MessageInfo | undefined,
  ): InboundWatch | undefined {
    return this.in(method, params, id, info);
  }

  notificationIn(method: string, params: Params, info: MessageInfo | undefined): InboundWatch | undefined {
    return this.in(method, params, undefined, info);
  }

  private out(
    method: string,
    params: Params,
    id: JsonRpcId | undefined,
    operation: object | undefined,
  ): OutboundSpan | undefined {
    const telemetry = this.telemetry;
    const api = telemetry.api;
    const meta = metaOf(params);
    const { name, attributes, uri } = describe(method, params, this.facts, meta);
    const parent = api.context.active();
    // A later request of one operation (an MRTR round, a task poll) links to the operation's first span.
    const first = operation === undefined ? undefined : telemetry.firstSpans.get(operation);
    const options =
      first === undefined
        ? { kind: KIND_CLIENT, attributes }
        : { kind: KIND_CLIENT, attributes, links: [{ context: first }] };
    const span = telemetry.tracer.startSpan(name, options, parent);
    const recording = span.isRecording();
    const valid = api.trace.isSpanContextValid(span.spanContext());
    if (operation !== undefined && first === undefined && valid) {
      telemetry.firstSpans.set(operation, span.spanContext());
    }
    // No SDK (or not sampled and nothing to carry on): nothing to record, nothing to propagate.
    if (!recording && !valid && !telemetry.metering) return undefined;
    if (recording) this.setRequestAttributes(span, id, uri, this.facts.sessionId());
    const sent = valid ? inject(api, api.trace.setSpan(parent, span), params) : params;
    return new OutboundSpan(
      sent,
      telemetry,
      this.histogram,
      method,
      recording ? span : undefined,
      attributes,
      now(),
    );
  }

  private in(
    method: string,
    params: Params,
    id: JsonRpcId | undefined,
    info: MessageInfo | undefined,
  ): InboundSpan | undefined {
    const telemetry = this.telemetry;
    const api = telemetry.api;
    const meta = metaOf(params);
    const { name, attributes, uri } = describe(method, params, this.facts, meta);
    const ambient = api.context.active();
    // The conventions: the context in `_meta` is the parent; the ambient one (an HTTP server span) a link.
    const parent =
      meta !== undefined && meta[MetaKey.TraceParent] !== undefined
        ? api.propagation.extract(ambient, meta)
        : ambient;
    let links: { context: ReturnType<OtelSpan["spanContext"]> }[] | undefined;
    if (parent !== ambient) {
      const ambientSpan = api.trace.getSpan(ambient);
      if (ambientSpan !== undefined && api.trace.isSpanContextValid(ambientSpan.spanContext())) {
        links = [{ context: ambientSpan.spanContext() }];
      }
    }
    const options =
      links === undefined ? { kind: KIND_SERVER, attributes } : { kind: KIND_SERVER, attributes, links };
    const span = telemetry.tracer.startSpan(name, options, parent);
    const recording = span.isRecording();
    const valid = api.trace.isSpanContextValid(span.spanContext());
    if (!recording && !valid && !telemetry.metering) return undefined;
    if (recording) {
      const session = (info?.sessionId as string | undefined) ?? this.facts.sessionId();
      this.setRequestAttributes(span, id, uri, session);
    }
    return new InboundSpan(
      telemetry,
      this.histogram,
      method,
      span,
      api.trace.setSpan(parent, span),
      attributes,
      now(),
    );
  }
}

/**
 * The {@link McpTelemetry} for a client or server with `option`, or `undefined` when telemetry is off
 * (`false`) or `@opentelemetry/api` is not installed and none was passed. Resolve it once per client or
 * server (at its first connect), not per message.
 */
export async function resolveTelemetry(
  option: TelemetryOption | undefined,
  side: "client" | "server",
  name: string,
  version: string,
): Promise<McpTelemetry | undefined> {
  if (option === false) return undefined;
  const api = option?.api ?? (await loadOpenTelemetry());
  return api === undefined ? undefined : new McpTelemetry(api, side, name, version, option);
}

/** Span kinds by name, for the GenAI spans of the tool loop (same numbers as the API's `SpanKind`). */
export const SpanKindValue = { INTERNAL: KIND_INTERNAL, SERVER: KIND_SERVER, CLIENT: KIND_CLIENT } as const;
/** `SpanStatusCode.ERROR` of the API. */
export const SPAN_STATUS_ERROR = STATUS_ERROR;
