import { ErrorCode, JsonRpcError } from "@mcpkit/jsonrpc";
import type { ClientCapabilities } from "./types/capabilities.js";
import type { ProtocolEra } from "./versions.js";

/**
 * Error codes MCP uses on the wire: the JSON-RPC 2.0 ones, re-listed, and MCP's own.
 *
 * `ResourceNotFound` (-32002) and `UrlElicitationRequired` (-32042) are legacy (≤ 2025-11-25): a 2026-07-28
 * peer must not emit them, but clients should still accept -32002. `-32020`…`-32022` are 2026-07-28.
 * @see SPEC.md §3.2
 */
export const McpErrorCode = {
  ParseError: ErrorCode.ParseError,
  InvalidRequest: ErrorCode.InvalidRequest,
  MethodNotFound: ErrorCode.MethodNotFound,
  InvalidParams: ErrorCode.InvalidParams,
  InternalError: ErrorCode.InternalError,
  /** Legacy resource-not-found; 2026-07-28 uses InvalidParams. */
  ResourceNotFound: -32002,
  /** HTTP headers missing, malformed, or different from the body (HTTP 400). */
  HeaderMismatch: -32020,
  /** The request needs a client capability it did not declare (HTTP 400). */
  MissingRequiredClientCapability: -32021,
  /** The request's protocol version is not supported (HTTP 400). */
  UnsupportedProtocolVersion: -32022,
  /** 2025-11-25: the request needs URL elicitations completed first. */
  UrlElicitationRequired: -32042,
} as const;

/** An error code listed in {@link McpErrorCode}. */
export type McpErrorCode = (typeof McpErrorCode)[keyof typeof McpErrorCode];

/** `data` of an UnsupportedProtocolVersion (-32022) error, and of a legacy `initialize` version error. */
export interface UnsupportedProtocolVersionErrorData {
  /** Versions the server supports; the client should retry with one of them. */
  supported: string[];
  /** The version the client asked for. */
  requested: string;
}

/** `data` of a MissingRequiredClientCapability (-32021) error. */
export interface MissingRequiredClientCapabilityErrorData {
  requiredCapabilities: ClientCapabilities;
}

/**
 * An MCP error that crosses the wire. Throw it from a handler to answer with exactly this code, message
 * and data; local failures (timeouts, closed connections) are other classes and never serialize.
 * The static helpers build the errors the spec names, with the `data` shapes it prescribes.
 */
export class McpError extends JsonRpcError {
  override name = "McpError";

  /** Wraps any wire error as an `McpError` keeping code, message and data; the original is the `cause`. */
  static fromJsonRpcError(error: JsonRpcError): McpError {
    if (error instanceof McpError) return error;
    return new McpError(error.code, error.message, error.data, { cause: error });
  }

  /** Builds an error from a wire error object, tolerating a malformed one (read as -32603). */
  static override fromWire(error: unknown): McpError {
    const e = JsonRpcError.fromWire(error);
    return new McpError(e.code, e.message, e.data);
  }

  /**
   * -32022: the request's protocol version is not supported. `data: { supported, requested }`.
   * @see SPEC.md §3.4
   */
  static unsupportedProtocolVersion(supported: readonly string[], requested: string): McpError {
    const data: UnsupportedProtocolVersionErrorData = { supported: [...supported], requested };
    return new McpError(
      McpErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version: ${requested}`,
      data,
    );
  }

  /**
   * -32021: processing needs client capabilities the request did not declare.
   * `data: { requiredCapabilities }`.
   */
  static missingClientCapability(requiredCapabilities: ClientCapabilities): McpError {
    const data: MissingRequiredClientCapabilityErrorData = { requiredCapabilities };
    return new McpError(
      McpErrorCode.MissingRequiredClientCapability,
      "Missing required client capability",
      data,
    );
  }

  /** -32020: HTTP headers are missing, malformed, or differ from the body. */
  static headerMismatch(message: string): McpError {
    return new McpError(McpErrorCode.HeaderMismatch, message);
  }

  /** -32602 with the given message and optional data. */
  static invalidParams(message: string, data?: unknown): McpError {
    return new McpError(McpErrorCode.InvalidParams, message, data);
  }

  /** -32601 naming the method. */
  static methodNotFound(method: string): McpError {
    return new McpError(McpErrorCode.MethodNotFound, `Method not found: ${method}`);
  }

  /**
   * A resource that does not exist: -32602 in the modern era, -32002 in the legacy era; `data: { uri }`.
   */
  static resourceNotFound(uri: string, era: ProtocolEra): McpError {
    const code = era === "modern" ? McpErrorCode.InvalidParams : McpErrorCode.ResourceNotFound;
    return new McpError(code, `Resource not found: ${uri}`, { uri });
  }
}

const PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion";

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/**
 * Whether a wire error object is a recognized 2026-07-28 error, which tells a dual-era client that the
 * server is modern (so it must not fall back to `initialize`): -32020, -32021 or -32022, or -32602 whose
 * message or data refers to the missing `_meta` protocol version.
 *
 * Any other error (including -32601 and a legacy `initialize` version error) gives false; the caller then
 * falls back to the legacy era. Accepts any value; never throws.
 * @see SPEC.md §3.4 Back-compat
 */
export function isModernError(errorObject: unknown): boolean {
  if (typeof errorObject !== "object" || errorObject === null) return false;
  const { code, message, data } = errorObject as { code?: unknown; message?: unknown; data?: unknown };
  if (
    code === McpErrorCode.HeaderMismatch ||
    code === McpErrorCode.MissingRequiredClientCapability ||
    code === McpErrorCode.UnsupportedProtocolVersion
  ) {
    return true;
  }
  if (code !== McpErrorCode.InvalidParams) return false;
  const text = `${textOf(message)} ${textOf(data)}`;
  if (text.includes(PROTOCOL_VERSION_META)) return true;
  return /protocolVersion/.test(text) && /_meta/.test(text);
}

/**
 * The `{ supported, requested }` data of a version error (-32022, or a legacy -32602 from `initialize`),
 * or `undefined` when the error carries none. Accepts any value; never throws.
 */
export function readUnsupportedVersionData(
  errorObject: unknown,
): UnsupportedProtocolVersionErrorData | undefined {
  if (typeof errorObject !== "object" || errorObject === null) return undefined;
  const data = (errorObject as { data?: unknown }).data;
  if (typeof data !== "object" || data === null) return undefined;
  const { supported, requested } = data as { supported?: unknown; requested?: unknown };
  if (!Array.isArray(supported) || !supported.every((v) => typeof v === "string")) return undefined;
  return { supported: [...supported], requested: typeof requested === "string" ? requested : "" };
}
