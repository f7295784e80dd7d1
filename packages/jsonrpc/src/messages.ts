import { parseObject } from "jsonrpc-lite";
import { ErrorCode, type JsonRpcErrorObject } from "./errors.js";

/** A request id: a string or an integer, never null for a request. */
export type JsonRpcId = string | number;

/** A JSON-RPC request: it expects exactly one response with the same id. */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown> | unknown[];
}

/** A JSON-RPC notification: no id, never answered. */
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown> | unknown[];
}

/** A successful response. */
export interface JsonRpcSuccessResponse {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result: unknown;
}

/** An error response; `id` is null only when the request's id could not be read. */
export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

/** Either kind of response. */
export type JsonRpcResponse = JsonRpcSuccessResponse | JsonRpcErrorResponse;

/** Any single JSON-RPC 2.0 message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The kinds a received value is classified into (jsonrpc-lite's status names). */
export type JsonRpcMessageKind = "request" | "notification" | "success" | "error" | "invalid";

/**
 * One classified message. `invalid` carries the error to answer with and, when it could be read,
 * the id of the offending request (so the answer can name it).
 */
export type ParsedMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "success"; message: JsonRpcSuccessResponse }
  | { kind: "error"; message: JsonRpcErrorResponse }
  | { kind: "invalid"; error: JsonRpcErrorObject; id: JsonRpcId | null };

function recoverId(value: unknown): JsonRpcId | null {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const id = (value as { id?: unknown }).id;
    if (typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id))) return id;
  }
  return null;
}

/**
 * Classifies one already-decoded JSON value through jsonrpc-lite. The returned message is the
 * original object (not a copy), so large results are never duplicated.
 */
export function classifyMessage(value: unknown): ParsedMessage {
  const fast = classifyWellFormed(value);
  if (fast !== undefined) return fast;
  const parsed = parseObject(value);
  // jsonrpc-lite's status enum is type-only under verbatimModuleSyntax: compare with our strings.
  const kind = parsed.type as unknown as JsonRpcMessageKind;
  if (kind === "invalid") {
    const id = recoverId(value);
    return {
      kind: "invalid",
      id,
      error: { code: ErrorCode.InvalidRequest, message: "Invalid Request: not a JSON-RPC 2.0 message" },
    };
  }
  return { kind, message: value } as ParsedMessage;
}

function isId(id: unknown): id is JsonRpcId {
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id));
}

/**
 * The hot path: a cheap envelope check that recognises the well-formed shapes without allocating.
 * Anything it is not sure of returns undefined and goes through jsonrpc-lite's full validation.
 */
function classifyWellFormed(value: unknown): ParsedMessage | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== "2.0") return undefined;
  const params = m.params;
  const paramsOk = params === undefined || (typeof params === "object" && params !== null);
  if (typeof m.method === "string") {
    if (!paramsOk) return undefined;
    if (!("id" in m)) return { kind: "notification", message: value as JsonRpcNotification };
    return isId(m.id) ? { kind: "request", message: value as JsonRpcRequest } : undefined;
  }
  if ("result" in m && m.result !== undefined && !("error" in m) && isId(m.id)) {
    return { kind: "success", message: value as JsonRpcSuccessResponse };
  }
  return undefined;
}

/**
 * Parses one frame of text into classified messages. A batch (a JSON array, allowed by 2025-03-26)
 * is taken apart and each element classified; an empty batch is one invalid message. Text that is
 * not JSON gives one `invalid` entry with -32700 and id null.
 */
export function parseMessages(text: string): ParsedMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [{ kind: "invalid", id: null, error: { code: ErrorCode.ParseError, message: "Parse error" } }];
  }
  return classifyValue(value);
}

/** Classifies a decoded JSON value, taking a batch apart. */
export function classifyValue(value: unknown): ParsedMessage[] {
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return [
        { kind: "invalid", id: null, error: { code: ErrorCode.InvalidRequest, message: "Empty batch" } },
      ];
    }
    return value.map(classifyMessage);
  }
  return [classifyMessage(value)];
}

/** Serializes one message: exactly one `JSON.stringify`, no embedded newlines (JSON escapes them). */
export function serializeMessage(message: JsonRpcMessage): string {
  return JSON.stringify(message);
}

/** Builds an error response. */
export function errorResponse(id: JsonRpcId | null, error: JsonRpcErrorObject): JsonRpcErrorResponse {
  return { jsonrpc: "2.0", id, error };
}

/** True for a message that has a `method` and an `id`. */
export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return "method" in message && "id" in message;
}

/** True for a message that has a `method` and no `id`. */
export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return "method" in message && !("id" in message);
}

/** True for a success or error response. */
export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !("method" in message);
}
