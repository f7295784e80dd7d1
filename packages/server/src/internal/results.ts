import type { PromptMessage } from "@mcpkit/protocol";
import { toBase64 } from "@mcpkit/protocol";
import type { PromptReturn, ResourceReturn, ToolReturn } from "../types.js";

const CONTENT_TYPES = new Set(["text", "image", "audio", "resource_link", "resource"]);

function isContentBlock(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { type?: unknown }).type === "string" &&
    CONTENT_TYPES.has((value as { type: string }).type)
  );
}

function isContentArray(value: unknown): value is Array<Record<string, unknown>> {
  return Array.isArray(value) && value.every(isContentBlock);
}

/**
 * A tool handler's return value as the wire `CallToolResult` (handler → wire; the client's
 * `toToolResult` goes the other way): a string is one text block, a content array passes
 * through, an object with a content array is taken as a full result, `undefined` is an empty result and
 * anything else becomes `structuredContent` plus its JSON as text (for clients that read text only).
 */
export function toWireToolResult(value: ToolReturn): Record<string, unknown> {
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (isContentArray(value)) return { content: value };
  if (
    typeof value === "object" &&
    !Array.isArray(value) &&
    isContentArray((value as { content?: unknown }).content)
  ) {
    // Object.assign, not a spread: on Node 20 a spread copy that later gains a property (resultType)
    // gets a map of its own each time, and every property access on it after that is slow.
    return Object.assign({}, value as Record<string, unknown>);
  }
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

/**
 * The result of a tool whose handler threw: the message only, never a stack or other detail. A system
 * error of Node's (`ENOENT: no such file or directory, open '/srv/app/…'`: a `code` and a `syscall`)
 * names a path of the server's machine, so the client reads only its code; `log`, when given, gets the
 * whole error.
 */
export function toolErrorResult(
  error: unknown,
  log?: (message: string, detail: unknown) => void,
): Record<string, unknown> {
  let message = error instanceof Error ? error.message : typeof error === "string" ? error : "Tool failed";
  if (isSystemError(error)) {
    log?.("A tool failed with a system error (the client is told its code only)", error);
    message = `The tool failed: a system error (${error.code})`;
  }
  return { content: [{ type: "text", text: message }], isError: true };
}

/** Whether `error` is one of Node's system errors (fs, net, child_process), which carry paths and hosts. */
export function isSystemError(error: unknown): error is Error & { code: string; syscall: string } {
  return (
    error instanceof Error &&
    typeof (error as { code?: unknown }).code === "string" &&
    typeof (error as { syscall?: unknown }).syscall === "string"
  );
}

/**
 * A resource handler's return value as `contents`: text, bytes (base64 `blob`), a content object, or a
 * full `ReadResourceResult`. `undefined` when the handler said "not found".
 */
export function toResourceContents(
  value: ResourceReturn,
  uri: string,
  mimeType: string | undefined,
): Array<Record<string, unknown>> | undefined {
  if (value === undefined || value === null) return undefined;
  // Literals, not `{ ...base, text }`: a spread with extra keys is a slow path on Node 20.
  const one = (key: "text" | "blob", data: string): Array<Record<string, unknown>> =>
    mimeType === undefined ? [{ uri, [key]: data }] : [{ uri, mimeType, [key]: data }];
  if (typeof value === "string") return one("text", value);
  if (value instanceof Uint8Array) return one("blob", toBase64(value));
  if (value instanceof ArrayBuffer) return one("blob", toBase64(new Uint8Array(value)));
  if (Array.isArray((value as { contents?: unknown }).contents)) {
    return (value as unknown as { contents: Array<Record<string, unknown>> }).contents;
  }
  const single = value as { text?: unknown; blob?: unknown; mimeType?: unknown };
  if (typeof single.text === "string" || typeof single.blob === "string") {
    const base = mimeType === undefined ? { uri } : { uri, mimeType };
    return [Object.assign(base, single as Record<string, unknown>)];
  }
  throw new TypeError(`The handler of resource ${uri} returned an unsupported value`);
}

/** A prompt handler's return value as a `GetPromptResult`. */
export function toPromptResult(
  value: PromptReturn,
  description: string | undefined,
): Record<string, unknown> {
  if (typeof value === "string") {
    const messages: PromptMessage[] = [{ role: "user", content: { type: "text", text: value } }];
    return description === undefined ? { messages } : { description, messages };
  }
  if (Array.isArray(value))
    return description === undefined ? { messages: value } : { description, messages: value };
  if (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { messages?: unknown }).messages)
  ) {
    return { ...(value as unknown as Record<string, unknown>) };
  }
  throw new TypeError("A prompt handler returned an unsupported value");
}
