import { isObject } from "@mcpkit/jsonrpc";
import { Header, type JsonSchema, X_MCP_HEADER } from "@mcpkit/protocol";
import { decodeUtf8 } from "./encoding.js";

/** One `x-mcp-header` annotation of a tool's input schema. */
export interface ParamHeader {
  /** Property names from the root, through `properties` only. */
  path: string[];
  /** The header name, lower-case: `mcp-param-<annotation>`. */
  header: string;
  type: "string" | "integer" | "boolean";
}

function primitiveType(type: unknown): ParamHeader["type"] {
  const types = Array.isArray(type) ? type.filter((t) => t !== "null") : [type];
  if (types.includes("integer")) return "integer";
  if (types.includes("boolean")) return "boolean";
  return "string";
}

/** The `x-mcp-header` annotations reachable through `properties` chains (computed once per tool). */
export function paramHeadersOf(schema: JsonSchema): ParamHeader[] {
  const out: ParamHeader[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (!isObject(node) || !isObject(node.properties)) return;
    for (const [name, sub] of Object.entries(node.properties)) {
      if (!isObject(sub)) continue;
      const annotation = sub[X_MCP_HEADER];
      if (typeof annotation === "string") {
        out.push({
          path: [...path, name],
          header: Header.ParamPrefix + annotation.toLowerCase(),
          type: primitiveType(sub.type),
        });
      }
      walk(sub, [...path, name]);
    }
  };
  walk(schema, []);
  return out;
}

const SENTINEL = /^=\?base64\?(.*)\?=$/;
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const PLAIN_SAFE = /^[\x20-\x7e]*$/;

/**
 * Decodes an `Mcp-Param-*` value. The `=?base64?…?=` form must be canonical padded base64 of UTF-8
 * (the SEP-2243 test table rejects missing padding and foreign characters); any other value is literal.
 */
export function decodeParamHeader(raw: string): string | undefined {
  const m = SENTINEL.exec(raw);
  if (!m) return PLAIN_SAFE.test(raw) ? raw : undefined;
  const body = m[1] ?? "";
  if (!STRICT_BASE64.test(body)) return undefined;
  let binary: string;
  try {
    binary = atob(body);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return decodeUtf8(bytes);
}

function bodyText(value: unknown, type: ParamHeader["type"]): string | undefined {
  if (type === "boolean" && typeof value === "boolean") return value ? "true" : "false";
  if (type === "integer" && typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

interface HeaderSource {
  get(name: string): string | null;
}

/**
 * Why the `Mcp-Param-*` headers of a `tools/call` do not match its arguments, or `undefined` when they do.
 * A value in the body needs its header (equal after decoding; integers compare numerically); a header
 * without a value in the body is a mismatch too.
 * @see SPEC.md §3.11 x-mcp-header
 */
export function paramHeaderProblem(
  params: ParamHeader[],
  args: unknown,
  headers: HeaderSource,
): string | undefined {
  for (const param of params) {
    let value: unknown = args;
    for (const step of param.path)
      value = isObject(value) && Object.hasOwn(value, step) ? value[step] : undefined;
    const raw = headers.get(param.header);
    if (value === undefined || value === null) {
      if (raw !== null) return `Header ${param.header} is present but the argument is absent`;
      continue;
    }
    if (raw === null) return `Header ${param.header} is missing`;
    const decoded = decodeParamHeader(raw.trim());
    if (decoded === undefined) return `Header ${param.header} is not a valid value`;
    const expected = bodyText(value, param.type);
    if (param.type === "integer" && typeof value === "number") {
      if (!/^-?\d+$/.test(decoded) || Number(decoded) !== value)
        return `Header ${param.header} does not match the argument`;
      continue;
    }
    if (decoded !== expected) return `Header ${param.header} does not match the argument`;
  }
  return undefined;
}

/** The request headers from a transport's message info, when it has any (HTTP). */
export function headersOf(info: unknown): HeaderSource | undefined {
  const headers = isObject(info) ? info.headers : undefined;
  if (headers === undefined || headers === null) return undefined;
  if (typeof (headers as HeaderSource).get === "function") return headers as HeaderSource;
  if (isObject(headers)) {
    const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    return { get: (name) => lower.get(name) ?? null };
  }
  return undefined;
}
