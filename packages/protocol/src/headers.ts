import { isObject } from "@mcpkit/jsonrpc";
import { decodeBase64, encodeBase64 } from "./internal/base64.js";
import type { JsonSchema } from "./types/tools.js";

/**
 * HTTP header names MCP uses, lower-case (HTTP header names are case-insensitive; values are not).
 * `SessionId` and `LastEventId` belong to the legacy era; `Method`, `Name` and `ParamPrefix` to 2026-07-28.
 * @see SPEC.md §3.11, §4.8
 */
export const Header = {
  /** The request's protocol version; in 2026-07-28 it must equal `_meta` protocolVersion. */
  ProtocolVersion: "mcp-protocol-version",
  /** Legacy Streamable HTTP session id. */
  SessionId: "mcp-session-id",
  /** 2026-07-28: the JSON-RPC method of the request. */
  Method: "mcp-method",
  /** 2026-07-28: `params.name` / `params.uri` / `params.taskId` (see {@link mcpNameFor}). */
  Name: "mcp-name",
  /** 2026-07-28: prefix of the headers mirrored from `x-mcp-header` tool parameters. */
  ParamPrefix: "mcp-param-",
  /** Legacy SSE resumption. */
  LastEventId: "last-event-id",
} as const;

/** One of the header names in {@link Header}. */
export type Header = (typeof Header)[keyof typeof Header];

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
// Plain-safe: visible ASCII and space only. Tab is a control character, so it is encoded too.
const PLAIN_SAFE = /^[\x20-\x7e]*$/;

function isSentinel(value: string): boolean {
  return (
    value.startsWith(SENTINEL_PREFIX) &&
    value.endsWith(SENTINEL_SUFFIX) &&
    value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length
  );
}

/**
 * Encodes a value for `Mcp-Name` or `Mcp-Param-*`. A safe value passes unchanged; a value that contains
 * non-ASCII or control characters, has leading or trailing whitespace, or itself looks like the sentinel
 * becomes `=?base64?<base64 of its UTF-8>?=` (markers lower-case).
 * @see SPEC.md §3.11 Value encoding
 */
export function encodeHeaderValue(value: string): string {
  const safe = PLAIN_SAFE.test(value) && value.trim() === value && !isSentinel(value);
  if (safe) return value;
  return SENTINEL_PREFIX + encodeBase64(new TextEncoder().encode(value)) + SENTINEL_SUFFIX;
}

/**
 * Decodes a header value encoded by {@link encodeHeaderValue}: a sentinel value is base64-decoded as
 * UTF-8, any other value is returned unchanged. Returns `undefined` when the value is malformed: bad
 * base64 or UTF-8 inside the sentinel, or characters a plain value cannot hold (servers answer that
 * with 400 and -32020). Servers must decode before comparing with the body.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  if (!isSentinel(raw)) {
    // A value that was transmitted plain must be plain-safe; the HTTP layer already trimmed it.
    return PLAIN_SAFE.test(raw) ? raw : undefined;
  }
  const encoded = raw.slice(SENTINEL_PREFIX.length, raw.length - SENTINEL_SUFFIX.length);
  // The header form is padded base64: an unpadded value is malformed, not a lenient spelling.
  if (encoded.length % 4 !== 0) return undefined;
  const bytes = decodeBase64(encoded);
  if (bytes === undefined) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The source value of the `Mcp-Name` header for a request, before encoding: `params.name` for `tools/call`
 * and `prompts/get`, `params.uri` for `resources/read`, `params.taskId` for the tasks extension's
 * `tasks/get`, `tasks/update` and `tasks/cancel`. `undefined` for other methods or a missing value.
 */
export function mcpNameFor(method: string, params: unknown): string | undefined {
  let key: string;
  switch (method) {
    case "tools/call":
    case "prompts/get":
      key = "name";
      break;
    case "resources/read":
      key = "uri";
      break;
    case "tasks/get":
    case "tasks/update":
    case "tasks/cancel":
      key = "taskId";
      break;
    default:
      return undefined;
  }
  if (typeof params !== "object" || params === null) return undefined;
  const value = (params as Record<string, unknown>)[key];
  return typeof value === "string" ? value : undefined;
}

/** The annotation keyword that mirrors a tool parameter into a `Mcp-Param-*` header. */
export const X_MCP_HEADER = "x-mcp-header";

// RFC 9110 token: 1*tchar.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE_TYPES = new Set(["string", "integer", "boolean"]);
// Keywords whose value maps names to subschemas: their keys are names, not keywords.
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
// Keywords whose value is instance data, never a schema.
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);

interface Annotated {
  /** Property names from the root, when reachable through `properties` only. */
  path: string[] | undefined;
  pointer: string;
  schema: Record<string, unknown>;
}

function collectAnnotated(
  node: unknown,
  path: string[] | undefined,
  pointer: string,
  out: Annotated[],
): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      collectAnnotated(item, undefined, `${pointer}/${i}`, out);
    });
    return;
  }
  if (!isObject(node)) return;
  if (Object.hasOwn(node, X_MCP_HEADER)) out.push({ path, pointer, schema: node });
  for (const [keyword, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(keyword) || keyword === X_MCP_HEADER) continue;
    if (SCHEMA_MAPS.has(keyword) && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) {
        const chain = keyword === "properties" && path !== undefined ? [...path, name] : undefined;
        collectAnnotated(sub, chain, `${pointer}/${keyword}/${name}`, out);
      }
    } else {
      collectAnnotated(value, undefined, `${pointer}/${keyword}`, out);
    }
  }
}

// A client computes the headers of every tools/call from the tool's schema: the walk is done once per
// schema object (schemas come from a tools/list answer and are not changed afterwards).
const annotationCache = new WeakMap<object, Annotated[]>();

function annotationsOf(inputSchema: unknown): Annotated[] {
  const cacheable = typeof inputSchema === "object" && inputSchema !== null;
  if (cacheable) {
    const cached = annotationCache.get(inputSchema);
    if (cached) return cached;
  }
  const out: Annotated[] = [];
  collectAnnotated(inputSchema, [], "", out);
  if (cacheable) annotationCache.set(inputSchema, out);
  return out;
}

function typeIsPrimitive(type: unknown): boolean {
  if (typeof type === "string") return PRIMITIVE_TYPES.has(type);
  if (!Array.isArray(type)) return false;
  const nonNull = type.filter((t) => t !== "null");
  return nonNull.length > 0 && nonNull.every((t) => typeof t === "string" && PRIMITIVE_TYPES.has(t));
}

/**
 * Why a tool's `x-mcp-header` annotations are invalid, or `undefined` when they are valid (or absent).
 * Each annotation must be a non-empty RFC 9110 token, unique case-insensitively within the schema, on a
 * property of type `string`, `integer` or `boolean` (never `number`) reachable from the root through
 * `properties` keys only (not `items`, composition, conditionals, `$ref` or `$defs`).
 * @see SPEC.md §3.11 x-mcp-header
 */
export function findXMcpHeaderProblem(inputSchema: unknown): string | undefined {
  const seen = new Map<string, string>();
  for (const { path, pointer, schema } of annotationsOf(inputSchema)) {
    const at = pointer === "" ? "the schema root" : pointer;
    if (path === undefined || path.length === 0) {
      return `x-mcp-header at ${at} is not on a property reachable through "properties" only`;
    }
    const name = schema[X_MCP_HEADER];
    if (typeof name !== "string" || !TOKEN.test(name)) {
      return `x-mcp-header at ${at} is not an HTTP token: ${JSON.stringify(name)}`;
    }
    if (!typeIsPrimitive(schema.type)) {
      return `x-mcp-header at ${at} is on type ${JSON.stringify(schema.type)}; only string, integer or boolean are allowed`;
    }
    const lower = name.toLowerCase();
    const other = seen.get(lower);
    if (other !== undefined) return `x-mcp-header "${name}" at ${at} duplicates the one at ${other}`;
    seen.set(lower, at);
  }
  return undefined;
}

/**
 * Whether a tool's `x-mcp-header` annotations are valid. On HTTP a client must drop a tool whose
 * annotations are not (and should log {@link findXMcpHeaderProblem}'s reason).
 */
export function validateXMcpHeaderAnnotations(inputSchema: unknown): boolean {
  return findXMcpHeaderProblem(inputSchema) === undefined;
}

function headerText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/**
 * The `Mcp-Param-*` headers for a `tools/call`: for each `x-mcp-header` property reachable through
 * `properties`, the argument at that exact path, as text (`true`/`false`, decimal integers) and encoded
 * with {@link encodeHeaderValue}. Header names are `mcp-param-` plus the annotation, lower-cased.
 * A missing or `null` value, or one that is not a string, boolean or safe integer, gives no header.
 * Call it only for tools whose annotations passed {@link validateXMcpHeaderAnnotations}.
 */
export function collectParamHeaders(inputSchema: JsonSchema, args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, schema } of annotationsOf(inputSchema)) {
    const name = schema[X_MCP_HEADER];
    if (path === undefined || path.length === 0 || typeof name !== "string") continue;
    let value: unknown = args;
    for (const step of path) {
      value = isObject(value) && Object.hasOwn(value, step) ? value[step] : undefined;
    }
    const text = headerText(value);
    if (text !== undefined) headers[Header.ParamPrefix + name.toLowerCase()] = encodeHeaderValue(text);
  }
  return headers;
}
