import type { JsonSchema } from "@mcpkit/tool-loop";

/** An OpenAI Chat Completions function tool definition (`{ type: "function", function: { ... } }`). */
export interface ChatCompletionsFunctionDefinition {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description?: string | undefined;
    readonly parameters?: JsonSchema | undefined;
    readonly strict?: boolean | null | undefined;
  };
}

/** An OpenAI Responses API function tool definition (`{ type: "function", name, parameters, ... }`). */
export interface ResponsesFunctionDefinition {
  readonly type: "function";
  readonly name: string;
  readonly description?: string | null | undefined;
  readonly parameters?: JsonSchema | null | undefined;
  readonly strict?: boolean | null | undefined;
}

/** What the function of a registered tool receives besides its arguments. */
export interface OpenAIToolContext {
  /** Aborted when the MCP request is cancelled. */
  readonly signal: AbortSignal;
}

/**
 * The function behind an OpenAI function tool. What it returns becomes the MCP tool result: a string one
 * text block (what OpenAI tool functions usually return), a JSON object `structuredContent` plus its JSON
 * as text, any other JSON value its JSON as text, `undefined`/`null` no content. A throw is left to the
 * server, which (with `@mcpkit/server`) answers `isError: true` with the message.
 */
export type OpenAIToolFunction = (args: Record<string, unknown>, context: OpenAIToolContext) => unknown;

/**
 * The one method of an MCP server this helper needs (`@mcpkit/server`'s `registerTool` fits): register a
 * tool with a description and a JSON Schema for its arguments.
 */
export interface ToolRegistry {
  registerTool(
    name: string,
    config: { description?: string; inputSchema?: JsonSchema },
    // `args` is `any` so servers that type arguments from the schema (as `@mcpkit/server` does) fit.
    handler: (args: any, context: OpenAIToolContext) => Promise<object>,
  ): unknown;
}

/** Options of {@link registerOpenAITool}. */
export interface RegisterOpenAIToolOptions {
  /** Register under another name than the definition's. */
  readonly name?: string | undefined;
}

/**
 * Registers a tool written for an OpenAI tool loop (a Chat Completions or Responses function definition
 * and its function) on an MCP server, in one call: the name, description and JSON Schema carry over
 * as they are, so any MCP client can call it.
 *
 * Structural on purpose: `server` is anything with `registerTool(name, { description, inputSchema },
 * handler)` (an `@mcpkit/server` server), so this package needs no server at run time.
 * A definition without `parameters` takes no arguments (`{ type: "object", properties: {} }`).
 * @returns what the server's `registerTool` returns (with `@mcpkit/server`, the registered tool handle).
 */
export function registerOpenAITool<R extends ToolRegistry>(
  server: R,
  definition: ChatCompletionsFunctionDefinition | ResponsesFunctionDefinition,
  fn: OpenAIToolFunction,
  options: RegisterOpenAIToolOptions = {},
): ReturnType<R["registerTool"]> {
  const spec = "function" in definition ? definition.function : definition;
  const config: { description?: string; inputSchema: JsonSchema } = {
    inputSchema: spec.parameters ?? { type: "object", properties: {} },
  };
  if (spec.description) config.description = spec.description;
  const handler = async (args: Record<string, unknown>, context: OpenAIToolContext): Promise<object> => {
    const value = await fn(args, context);
    // Boxed so the return type stays `object` for every registry; @mcpkit/server unwraps a full
    // CallToolResult, so strings and JSON values are sent exactly as the function returned them.
    return toCallToolResult(value);
  };
  return server.registerTool(options.name ?? spec.name, config, handler) as ReturnType<R["registerTool"]>;
}

function toCallToolResult(value: unknown): object {
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (value === undefined || value === null) return { content: [] };
  const text = JSON.stringify(value);
  return typeof value === "object" && !Array.isArray(value)
    ? { content: [{ type: "text", text }], structuredContent: value }
    : { content: [{ type: "text", text }] };
}
