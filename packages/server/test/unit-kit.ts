// Building blocks for the unit tests beside the server's modules: a core, a request context, a call.
import type { Peer, RequestContext } from "@mcpkit/jsonrpc";
import type { ClientCapabilities, RequestMeta } from "@mcpkit/protocol";
import type { Conn, Session } from "../src/connection.js";
import type { CallInfo } from "../src/internal/context.js";
import { ServerCore } from "../src/server-core.js";
import type { ServerOptions } from "../src/types.js";

export const V = "2026-07-28";

/** A server core with a logger that records instead of printing. */
export function makeCore(options: Partial<ServerOptions> = {}): ServerCore & { logged: unknown[][] } {
  const logged: unknown[][] = [];
  const core = new ServerCore({
    name: "unit",
    version: "1.0.0",
    logger: { error: (...args: unknown[]) => logged.push(args) },
    ...options,
  });
  return Object.assign(core, { logged });
}

export interface FakeRctx extends RequestContext {
  readonly notified: Array<{ method: string; params: unknown }>;
  readonly controller: AbortController;
}

/** A request context that records its notifications; abort it with `controller.abort()`. */
export function fakeRctx(
  method = "tools/call",
  id: number | string = 1,
  info?: RequestContext["info"],
): FakeRctx {
  const controller = new AbortController();
  const notified: Array<{ method: string; params: unknown }> = [];
  return {
    id,
    method,
    info,
    controller,
    notified,
    get signal() {
      return controller.signal;
    },
    get aborted() {
      return controller.signal.aborted;
    },
    notify: async (m, params) => {
      notified.push({ method: m, params });
    },
    request: async () => {
      throw new Error("no client in a unit test");
    },
  };
}

/** The `CallInfo` of a modern request. */
export function modernCall(
  method: string,
  capabilities: ClientCapabilities = {},
  rctx: RequestContext = fakeRctx(method),
): CallInfo {
  return {
    era: "modern",
    protocolVersion: V,
    method,
    requestId: rctx.id,
    rctx,
    clientInfo: undefined,
    clientCapabilities: capabilities,
    meta: {} as RequestMeta,
    logThreshold: undefined,
    requestTimeout: undefined,
  };
}

/** The `CallInfo` of a request in a 2025-11-25 session. */
export function legacyCall(
  method: string,
  capabilities: ClientCapabilities = {},
  rctx: RequestContext = fakeRctx(method),
): CallInfo {
  return {
    era: "legacy",
    protocolVersion: "2025-11-25",
    method,
    requestId: rctx.id,
    rctx,
    clientInfo: undefined,
    clientCapabilities: capabilities,
    meta: {} as RequestMeta,
    logThreshold: "all",
    requestTimeout: undefined,
  };
}

/** A connection whose peer records notifications; `session` makes it a legacy session. */
export function fakeConn(
  session?: Partial<Session>,
): Conn & { sent: Array<{ method: string; params: unknown }> } {
  const sent: Array<{ method: string; params: unknown }> = [];
  const peer = {
    batches: false,
    notify: async (method: string, params?: unknown) => {
      sent.push({ method, params });
    },
  } as unknown as Peer;
  return {
    peer,
    sent,
    era: session ? "legacy" : undefined,
    session: session && {
      protocolVersion: "2025-11-25",
      clientCapabilities: {},
      clientInfo: undefined,
      initialized: true,
      logLevel: undefined,
      subscriptions: new Set(),
      ...session,
    },
  };
}

/** The error a synchronous or asynchronous call ends with. */
export async function errorOf(run: () => unknown): Promise<any> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}
