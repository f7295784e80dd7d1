import type { Annotations, JsonValue, Meta } from "./base.js";
import type { Resource } from "./resources.js";

/** Plain text. */
export interface TextContent {
  type: "text";
  text: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/** An image, base64-encoded. */
export interface ImageContent {
  type: "image";
  /** Base64 of the image bytes. */
  data: string;
  /** e.g. `image/png`. */
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/** Audio, base64-encoded. Added in 2025-03-26. */
export interface AudioContent {
  type: "audio";
  /** Base64 of the audio bytes. */
  data: string;
  /** e.g. `audio/wav`. */
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/**
 * A link to a resource the client may read or subscribe to. Not guaranteed to appear in `resources/list`.
 * Added in 2025-06-18.
 */
export interface ResourceLink extends Resource {
  type: "resource_link";
}

/** Contents of a resource: its URI, an optional MIME type and either `text` or `blob`. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  _meta?: Meta;
}

/** A resource whose contents are text. */
export interface TextResourceContents extends ResourceContents {
  text: string;
}

/** A resource whose contents are binary, base64-encoded. */
export interface BlobResourceContents extends ResourceContents {
  /** Base64 of the bytes. */
  blob: string;
}

/** A resource's contents embedded in a message or tool result. */
export interface EmbeddedResource {
  type: "resource";
  resource: TextResourceContents | BlobResourceContents;
  annotations?: Annotations;
  _meta?: Meta;
}

/**
 * Content of a tool result or prompt message.
 * 2024-11-05 had text, image and embedded resource; audio came in 2025-03-26, `resource_link` in 2025-06-18.
 */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/**
 * A model's request to call a tool, inside sampling (2025-11-25+). Appears only in sampling messages.
 */
export interface ToolUseContent {
  type: "tool_use";
  /** Unique id of this use, matched by a later `tool_result`. */
  id: string;
  /** Tool name. */
  name: string;
  /** Arguments, conforming to the tool's input schema. */
  input: Record<string, unknown>;
  _meta?: Meta;
}

/** The result of a tool use, inside sampling (2025-11-25+). */
export interface ToolResultContent {
  type: "tool_result";
  /** The `id` of the `tool_use` this answers. */
  toolUseId: string;
  content: ContentBlock[];
  /** 2026-07-28: any JSON value; 2025-11-25: an object. */
  structuredContent?: JsonValue;
  isError?: boolean;
  _meta?: Meta;
}

/** Content allowed in a sampling message. */
export type SamplingMessageContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | ToolUseContent
  | ToolResultContent;
