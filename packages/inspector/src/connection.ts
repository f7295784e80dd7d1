import { type Client, createClient, type TransportSource } from "@mcpkit/client";
import type { ElicitResult, LoggingLevel } from "@mcpkit/protocol";
import { createSseClientTransport, createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { spawnStdioTransport } from "@mcpkit/transport-stdio";
import { type Diagnosis, diagnose } from "./doctor.js";
import type { EventHub } from "./event-hub.js";
import { tapJunk } from "./junk-tap.js";
import { cut, STDERR_LINES_LIMIT } from "./limits.js";
import { type ShapedResult, shapeResult } from "./result-shape.js";
import { type InspectorTarget, targetLabel } from "./target.js";
import { createWireLog, type WireLog, wireHeaders } from "./wire-log.js";

/** Where a connection stands. */
export type ConnectionState = "connecting" | "ready" | "failed" | "closed";

/** What the page is told about a connection. */
export interface ConnectionSummary {
  id: string;
  label: string;
  target: InspectorTarget;
  state: ConnectionState;
  era?: string;
  protocolVersion?: string;
  serverInfo?: unknown;
  capabilities?: unknown;
  instructions?: string;
  discovery?: unknown;
  diagnosis?: Diagnosis;
  /** Why a ready connection closed (a crash after the handshake). */
  closedReason?: string;
  stderrTail: string[];
}

/** Options of {@link openConnection}. */
export interface ConnectionOptions {
  /** Per-request timeout, ms (default 60 000). */
  requestTimeout?: number;
  /** Handshake timeout, ms (default 15 000). */
  connectTimeout?: number;
}

/** One MCP connection the inspector holds for the page, with its wire log and the input it waits on. */
export interface InspectorConnection {
  readonly id: string;
  readonly wire: WireLog;
  summary(): ConnectionSummary;
  /** Connects (again); resolves when it is ready or has failed (never rejects). */
  connect(): Promise<ConnectionSummary>;
  list(what: "tools" | "resources" | "templates" | "prompts"): Promise<unknown[]>;
  /** Calls a tool; `callId` names it for {@link InspectorConnection.cancel} and the progress events. */
  call(callId: string, name: string, args: Record<string, unknown>): Promise<ShapedResult>;
  cancel(callId: string): boolean;
  read(uri: string): Promise<ShapedResult>;
  prompt(name: string, args: Record<string, string>): Promise<ShapedResult>;
  /** Answers a pending elicitation. */
  answer(elicitId: string, result: ElicitResult): boolean;
  setLogLevel(level: LoggingLevel): Promise<void>;
  close(): Promise<void>;
}

const JUNK_GRACE_MS = 2000;
/** The largest message the inspector accepts from a server (the transports' default is 16 MiB). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Whether `error` says the connection itself is gone (a crash, a close), not one request's failure. */
function connectionLost(error: unknown): boolean {
  const name = (error as { name?: unknown })?.name;
  return name === "McpCrashError" || name === "ConnectionClosedError";
}

/** Creates the connection `id` to `target`; events go to `hub` tagged with the id. Call `connect()`. */
export function openConnection(
  id: string,
  target: InspectorTarget,
  hub: EventHub,
  options: ConnectionOptions = {},
): InspectorConnection {
  const wire = createWireLog();
  const stderrTail: string[] = [];
  const junk: string[] = [];
  const httpStatuses: number[] = [];
  const calls = new Map<string, AbortController>();
  const elicitations = new Map<string, (result: ElicitResult) => void>();
  let state: ConnectionState = "connecting";
  let client: Client | undefined;
  let diagnosis: Diagnosis | undefined;
  let closedReason: string | undefined;
  let elicitSeq = 0;
  let junkAbort: AbortController | undefined;
  const emit = (type: string, data: Record<string, unknown> = {}) =>
    hub.publish({ type, connection: id, ...data });
  const era = () => client?.era ?? "negotiating";

  const summary = (): ConnectionSummary => {
    const s: ConnectionSummary = {
      id,
      label: targetLabel(target),
      target: redacted(target),
      state,
      stderrTail: [...stderrTail],
    };
    if (client && (state === "ready" || state === "closed")) {
      if (client.era) s.era = client.era;
      if (client.protocolVersion) s.protocolVersion = client.protocolVersion;
      s.serverInfo = client.serverInfo;
      s.capabilities = client.capabilities;
      if (client.instructions) s.instructions = client.instructions;
      if (client.discovery) s.discovery = client.discovery;
    }
    if (diagnosis) s.diagnosis = diagnosis;
    if (closedReason) s.closedReason = closedReason;
    return s;
  };

  const onStderr = (line: string) => {
    stderrTail.push(cut(line, 2000));
    if (stderrTail.length > STDERR_LINES_LIMIT) stderrTail.shift();
    emit("stderr", { line: cut(line, 2000) });
  };

  const recordingFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const started = Date.now();
    const base = { method: request.method, url: request.url, requestHeaders: wireHeaders(request.headers) };
    try {
      const response = await fetch(input, init);
      httpStatuses.push(response.status);
      const entry = wire.http(
        {
          ...base,
          status: response.status,
          responseHeaders: wireHeaders(response.headers),
          ms: Date.now() - started,
        },
        era(),
      );
      emit("wire", { entry });
      return response;
    } catch (error) {
      const entry = wire.http(
        { ...base, error: errorLine(error), responseHeaders: {}, ms: Date.now() - started },
        era(),
      );
      emit("wire", { entry });
      throw error;
    }
  };

  const source = (): TransportSource => {
    if (target.kind === "stdio") {
      return () =>
        tapJunk(
          spawnStdioTransport({
            command: target.command,
            args: target.args ?? [],
            stderr: onStderr,
            // An inspector must show a large result (cut for the page) rather than refuse it.
            maxFrameBytes: MAX_MESSAGE_BYTES,
            ...(target.env ? { env: target.env } : {}),
            ...(target.cwd ? { cwd: target.cwd } : {}),
          }),
          (line, sawMessage) => {
            junk.push(cut(line, 500));
            if (junk.length > 20) junk.shift();
            emit("stderr", { line: `[stdout, not JSON-RPC] ${cut(line, 500)}` });
            // A server that writes only junk would hold the handshake for the whole connect timeout.
            if (!sawMessage && state === "connecting")
              setTimeout(
                () =>
                  junkAbort?.abort(
                    new Error(`the server wrote only output that is not JSON-RPC: ${cut(line, 200)}`),
                  ),
                JUNK_GRACE_MS,
              );
          },
        );
    }
    const base = {
      url: target.url,
      headers: { ...target.headers },
      fetch: recordingFetch,
      maxResponseBytes: MAX_MESSAGE_BYTES,
    };
    const mode = target.mode ?? "auto";
    if (mode === "sse") return { sse: () => createSseClientTransport(base) };
    if (mode === "modern")
      return { modern: () => createStreamableHttpClientTransport({ ...base, era: "modern" }) };
    if (mode === "legacy")
      return {
        legacy: () => createStreamableHttpClientTransport({ ...base, era: "legacy" }),
        sse: () => createSseClientTransport(base),
      };
    return {
      modern: () => createStreamableHttpClientTransport({ ...base, era: "modern" }),
      legacy: () => createStreamableHttpClientTransport({ ...base, era: "legacy" }),
      sse: () => createSseClientTransport(base),
    };
  };

  const makeClient = (): Client => {
    const mode = target.kind === "http" ? (target.mode ?? "auto") : "auto";
    return createClient({
      name: "mcpkit-inspector",
      version: "0.1.0",
      telemetry: false,
      versionNegotiation:
        mode === "modern" ? "modern" : mode === "legacy" || mode === "sse" ? "legacy" : "auto",
      requestTimeout: options.requestTimeout ?? 60_000,
      connectTimeout: options.connectTimeout ?? 15_000,
      resetTimeoutOnProgress: true,
      cache: false,
      handlers: {
        elicitation: (params, context) =>
          new Promise<ElicitResult>((resolve) => {
            const elicitId = `e${++elicitSeq}`;
            elicitations.set(elicitId, resolve);
            context.signal.addEventListener("abort", () => {
              if (elicitations.delete(elicitId)) emit("elicitation-done", { elicitId, reason: "cancelled" });
            });
            emit("elicitation", { elicitId, params });
          }),
      },
      onMessage: (event) => emit("wire", { entry: wire.message(event.direction, event.message, era()) }),
      onLog: (params) => emit("log", { params: shapeResult(params).value }),
      onNotification: (notification) =>
        emit("notification", { notification: shapeResult(notification).value }),
      onClose: () => {
        if (state === "ready") {
          state = "closed";
          closedReason =
            stderrTail.length > 0
              ? `the connection closed; the server's last stderr line: ${stderrTail.at(-1)}`
              : "the connection closed";
          emit("state", { summary: summary() });
        }
      },
    });
  };

  const ready = () => {
    if (!client || state !== "ready") throw new Error(`the connection is ${state}: reconnect first`);
    return client;
  };

  /** Runs one request; a crash or close it meets marks the connection closed (the page offers reconnect). */
  const guard = async <T>(run: (c: Client) => Promise<T>): Promise<T> => {
    try {
      return await run(ready());
    } catch (error) {
      if (connectionLost(error) && state === "ready") {
        state = "closed";
        closedReason = errorLine(error);
        emit("state", { summary: summary() });
      }
      throw error;
    }
  };

  return {
    id,
    wire,
    summary,
    async connect() {
      await client?.close().catch(() => {});
      state = "connecting";
      diagnosis = undefined;
      closedReason = undefined;
      junk.length = 0;
      httpStatuses.length = 0;
      emit("state", { summary: summary() });
      client = makeClient();
      junkAbort = new AbortController();
      try {
        await client.connect(source(), { signal: junkAbort.signal });
        state = "ready";
      } catch (error) {
        const c = client;
        client = undefined;
        await c.close().catch(() => {});
        state = "failed";
        diagnosis = diagnose(target, error, {
          stderrTail: [...stderrTail],
          junk: [...junk],
          httpStatuses: [...httpStatuses],
        });
      }
      junkAbort = undefined;
      const s = summary();
      emit("state", { summary: s });
      return s;
    },
    list(what) {
      return guard<unknown[]>((c) => {
        if (what === "tools") return c.listTools();
        if (what === "resources") return c.listResources();
        if (what === "templates") return c.listResourceTemplates();
        return c.listPrompts();
      });
    },
    async call(callId, name, args) {
      const controller = new AbortController();
      calls.set(callId, controller);
      try {
        const result = await guard((c) =>
          c.callTool(name, args, {
            signal: controller.signal,
            onProgress: (progress) => emit("progress", { callId, progress }),
          }),
        );
        return shapeResult({
          content: result.parts,
          structuredContent: result.structured,
          isError: result.isError,
          _meta: result.meta,
        });
      } finally {
        calls.delete(callId);
      }
    },
    cancel(callId) {
      const controller = calls.get(callId);
      controller?.abort(new Error("cancelled from the inspector"));
      return controller !== undefined;
    },
    async read(uri) {
      return shapeResult(await guard((c) => c.readResource(uri)));
    },
    async prompt(name, args) {
      return shapeResult(await guard((c) => c.getPrompt(name, args)));
    },
    answer(elicitId, result) {
      const resolve = elicitations.get(elicitId);
      if (!resolve) return false;
      elicitations.delete(elicitId);
      resolve(result);
      emit("elicitation-done", { elicitId, reason: result.action });
      return true;
    },
    async setLogLevel(level) {
      await guard((c) => c.setLogLevel(level));
    },
    async close() {
      state = "closed";
      for (const controller of calls.values()) controller.abort(new Error("the connection was closed"));
      await client?.close().catch(() => {});
      client = undefined;
    },
  };
}

/** The target as the page sees it: header and environment values hidden (they may hold secrets). */
function redacted(target: InspectorTarget): InspectorTarget {
  const hide = (record: Record<string, string> | undefined) =>
    record ? Object.fromEntries(Object.keys(record).map((key) => [key, "…"])) : undefined;
  if (target.kind === "http") {
    const headers = hide(target.headers);
    return { ...target, ...(headers ? { headers } : {}) };
  }
  const env = hide(target.env);
  return { ...target, ...(env ? { env } : {}) };
}

/** One line naming an error and its cause. */
export function errorLine(error: unknown): string {
  const e = error as { message?: string; cause?: { message?: string; code?: string } };
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `${e?.message ?? String(error)}${cause ? ` (${cause})` : ""}`;
}
