import {
  type AggregateToolsOptions,
  executeToolCall,
  type JsonSchema,
  type Toolbox,
  type ToolSources,
  toModelTools,
  toToolbox,
} from "@mcpkit/tool-loop";

// The AI SDK's own schema marker: a registered symbol, so every copy and major of `ai` (5 to 7)
// recognises a schema made here exactly as one made by its `jsonSchema()`, and this package needs
// no `ai` import at run time.
const AI_SDK_SCHEMA = Symbol.for("vercel.ai.schema");

/** What an MCP tool's `execute` resolves with: the tool result, failures included (never a throw). */
export interface McpToolOutput {
  /** The result's text: its content, or the JSON of its structured content when the content is empty. */
  readonly content: string;
  /** True when the tool failed (`isError`, or the server could not be reached). */
  readonly isError: boolean;
  /** The result's `structuredContent`, if any. */
  readonly structured?: unknown;
}

/** What the AI SDK hands a tool's `execute` (the subset used). */
export interface AiSdkToolCallOptions {
  readonly toolCallId: string;
  readonly abortSignal?: AbortSignal | undefined;
}

/** What the model receives for a tool result, in the AI SDK's `ToolResultOutput` terms. */
export interface AiSdkModelOutput {
  type: "text" | "error-text";
  value: string;
}

/**
 * One MCP tool as an AI SDK tool (a `dynamic` tool: its types are known at run time only).
 *
 * Structural, so it fits `ai` 6's `ToolSet` and the next major's without this package importing `ai`.
 */
export interface McpAiTool {
  readonly type: "dynamic";
  readonly description: string;
  readonly title?: string;
  /**
   * The tool's JSON Schema as an AI SDK schema (what `jsonSchema()` of `ai` makes), passed to the
   * provider as the server wrote it. Typed loosely: the SDK's schema type is keyed by a symbol declared
   * inside `ai`, which a structural type cannot name.
   */
  readonly inputSchema: any;
  /** Calls the tool over MCP. Resolves with the result even when the tool failed; rejects only on abort. */
  execute(input: unknown, options: AiSdkToolCallOptions): Promise<McpToolOutput>;
  /** Sends the result's text to the model, as `error-text` when the tool failed. */
  toModelOutput(options: { readonly output: unknown }): AiSdkModelOutput;
}

/** A `ToolSet` of MCP tools for `generateText` / `streamText`, keyed by local (possibly prefixed) name. */
export type McpToolSet = Record<string, McpAiTool>;

/**
 * The tools of one or more MCP servers as an AI SDK `ToolSet`: pass it as `tools` to `generateText` or
 * `streamText`, each tool executing over MCP.
 *
 * `input` is an MCP client (any `ToolSource`), several (aggregated with prefixes, see `aggregateTools`),
 * or a toolbox already aggregated; the tool list is read once, here. Each tool's `execute` resolves
 * with an {@link McpToolOutput}; a failed tool (`isError`, or a server that is gone) reaches the model
 * as `error-text` carrying the message, so it can correct itself, and the app still sees the output.
 * The AI SDK's abort signal cancels the MCP request.
 *
 * Remember that `ai` stops after one step unless told otherwise: pass `stopWhen: stepCountIs(n)`.
 * @throws {ToolNameCollisionError} when aggregation finds two tools of one name.
 */
export async function mcpToolSet(
  input: Toolbox | ToolSources,
  options: AggregateToolsOptions = {},
): Promise<McpToolSet> {
  const toolbox = await toToolbox(input, options);
  const set: McpToolSet = {};
  const descriptors = new Map(toolbox.tools.map((tool) => [tool.name, tool]));
  for (const tool of toModelTools(toolbox.tools)) {
    const title = descriptors.get(tool.name)?.title;
    const entry: McpAiTool = {
      type: "dynamic",
      description: tool.description,
      inputSchema: aiSdkJsonSchema(tool.inputSchema),
      async execute(args, callOptions) {
        const result = await executeToolCall(
          toolbox,
          { id: callOptions.toolCallId, name: tool.name, arguments: args },
          { signal: callOptions.abortSignal },
        );
        const output: McpToolOutput = { content: result.content, isError: result.isError };
        return result.structured === undefined ? output : { ...output, structured: result.structured };
      },
      toModelOutput: ({ output }) => toModelOutput(output),
      ...(title === undefined ? {} : { title }),
    };
    set[tool.name] = entry;
  }
  return set;
}

/**
 * A JSON Schema as an AI SDK schema, the same object `jsonSchema(schema)` of `ai` makes: the provider
 * receives the schema untouched, and values are not validated here (the MCP server validates them).
 */
export function aiSdkJsonSchema(schema: JsonSchema): any {
  return {
    [AI_SDK_SCHEMA]: true,
    _type: undefined,
    jsonSchema: schema,
    validate: (value: unknown) => ({ success: true, value }),
  };
}

function toModelOutput(output: unknown): AiSdkModelOutput {
  const result = (typeof output === "object" && output !== null ? output : {}) as Partial<McpToolOutput>;
  const value = typeof result.content === "string" ? result.content : JSON.stringify(output ?? null);
  return { type: result.isError === true ? "error-text" : "text", value };
}
