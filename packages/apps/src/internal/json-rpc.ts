// The JSON-RPC 2.0 shapes the bridge reads and writes over postMessage (structured clones, not text).

/** A request id as JSON-RPC allows it. */
export type RpcId = string | number;

/** A message the bridge sends to the view. */
export type RpcOut =
  | { jsonrpc: "2.0"; id: RpcId | null; result: unknown }
  | { jsonrpc: "2.0"; id: RpcId | null; error: { code: number; message: string; data?: unknown } }
  | { jsonrpc: "2.0"; id: RpcId; method: string; params: unknown }
  | { jsonrpc: "2.0"; method: string; params: unknown };

/** What a frame from the view turned out to be. */
export type RpcIn =
  | { kind: "request"; id: RpcId; method: string; params: unknown }
  | { kind: "notification"; method: string; params: unknown }
  | { kind: "response"; id: RpcId; result?: unknown; error?: unknown }
  | { kind: "invalid"; id: RpcId | null; reason: string };

/** JSON-RPC error codes the bridge answers with. */
export const RpcCode = {
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Refused by the host (a hook, a policy): the spec's implementation-defined code. */
  Refused: -32000,
} as const;

const isId = (value: unknown): value is RpcId =>
  (typeof value === "string" && value.length > 0) || (typeof value === "number" && Number.isFinite(value));

/** Sorts one frame from the view; anything that is not a JSON-RPC 2.0 message is `invalid`. */
export function classify(data: unknown): RpcIn {
  if (typeof data !== "object" || data === null || Array.isArray(data))
    return { kind: "invalid", id: null, reason: "not a JSON-RPC object" };
  const m = data as Record<string, unknown>;
  const id = isId(m.id) ? m.id : null;
  if (m.jsonrpc !== "2.0") return { kind: "invalid", id, reason: 'jsonrpc is not "2.0"' };
  if ("method" in m) {
    if (typeof m.method !== "string" || m.method === "")
      return { kind: "invalid", id, reason: "method is not a string" };
    if (m.params !== undefined && (typeof m.params !== "object" || m.params === null))
      return { kind: "invalid", id, reason: "params is not an object" };
    if ("id" in m && m.id !== undefined) {
      if (id === null) return { kind: "invalid", id: null, reason: "id is not a string or number" };
      return { kind: "request", id, method: m.method, params: m.params ?? {} };
    }
    return { kind: "notification", method: m.method, params: m.params ?? {} };
  }
  if (id !== null && ("result" in m || "error" in m))
    return { kind: "response", id, result: m.result, error: m.error };
  return { kind: "invalid", id, reason: "neither a request, a notification nor a response" };
}

/** An error the bridge answers a view's request with. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "RpcError";
  }
}
