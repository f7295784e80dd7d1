import type { ContentBlock, JsonValue, ResultMeta } from "@mcpkit/protocol";

/**
 * The outcome of `tools/call` in a shape a host can use directly.
 *
 * A tool's own failure is data (`isError: true`), never a throw; only a JSON-RPC error (unknown tool,
 * bad arguments) throws an `McpError`.
 */
export interface ToolResult<T = JsonValue> {
  /** Text parts joined with "\n"; every other part (image, audio, resource, link) as its JSON. */
  content: string;
  /**
   * `structuredContent` exactly as the server sent it, or `undefined` when there was none; with
   * `callTool(name, args, { schema })`, the value the schema parsed, typed by it.
   */
  structured: T | undefined;
  /** True when the tool reported a failure. */
  isError: boolean;
  /** The raw `content` array. */
  parts: ContentBlock[];
  /** The result's `_meta`, when the server sent one. */
  meta?: ResultMeta;
}

/**
 * Reads a {@link ToolResult} from a `CallToolResult` as it came off the wire (wire → result; the server's
 * opposite is its handler return → wire). A missing or malformed `content` gives an empty list rather
 * than a throw: the result is the server's data, reported as received.
 */
export function fromWireToolResult(raw: unknown): ToolResult {
  const r = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const parts = Array.isArray(r.content) ? (r.content as ContentBlock[]) : [];
  const texts: string[] = [];
  for (const part of parts) {
    texts.push(
      part !== null && typeof part === "object" && part.type === "text" && typeof part.text === "string"
        ? part.text
        : JSON.stringify(part),
    );
  }
  const result: ToolResult = {
    content: texts.join("\n"),
    structured: r.structuredContent as JsonValue | undefined,
    isError: r.isError === true,
    parts,
  };
  if (r._meta !== undefined && typeof r._meta === "object" && r._meta !== null)
    result.meta = r._meta as ResultMeta;
  return result;
}
