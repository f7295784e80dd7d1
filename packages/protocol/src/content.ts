import { decodeBase64, encodeBase64 } from "./internal/base64.js";
import type { Annotations } from "./types/base.js";
import type {
  AudioContent,
  BlobResourceContents,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  TextContent,
  TextResourceContents,
} from "./types/content.js";
import type { Resource } from "./types/resources.js";

/**
 * A text content block. `annotations` is included only when given.
 * @see SPEC.md §3.9 Content blocks
 */
export function text(text: string, annotations?: Annotations): TextContent {
  return annotations === undefined ? { type: "text", text } : { type: "text", text, annotations };
}

/** An image content block from base64 data (see {@link toBase64} for bytes). */
export function image(dataBase64: string, mimeType: string, annotations?: Annotations): ImageContent {
  const block: ImageContent = { type: "image", data: dataBase64, mimeType };
  if (annotations !== undefined) block.annotations = annotations;
  return block;
}

/** An audio content block from base64 data (2025-03-26+). */
export function audio(dataBase64: string, mimeType: string, annotations?: Annotations): AudioContent {
  const block: AudioContent = { type: "audio", data: dataBase64, mimeType };
  if (annotations !== undefined) block.annotations = annotations;
  return block;
}

/** A `resource_link` block pointing at a resource (2025-06-18+). The resource object is copied, not kept. */
export function resourceLink(resource: Resource): ResourceLink {
  return Object.assign({}, resource, { type: "resource_link" as const });
}

/** An embedded resource block carrying a resource's text or blob contents. */
export function embeddedResource(
  contents: TextResourceContents | BlobResourceContents,
  annotations?: Annotations,
): EmbeddedResource {
  const block: EmbeddedResource = { type: "resource", resource: contents };
  if (annotations !== undefined) block.annotations = annotations;
  return block;
}

/**
 * Base64 (standard alphabet, padded) of `bytes`. Runtime-neutral; uses `Buffer` only when the runtime
 * has one, for speed.
 */
export function toBase64(bytes: Uint8Array): string {
  return encodeBase64(bytes);
}

/**
 * The bytes of a base64 string (standard alphabet; padding optional).
 * @throws {TypeError} when `text` is not valid base64.
 */
export function fromBase64(text: string): Uint8Array {
  const bytes = decodeBase64(text);
  if (bytes === undefined) throw new TypeError("Invalid base64 string");
  return bytes;
}
