import { type JsonSchema, type ToolDescriptor, toModelTools } from "@mcpkit/tool-loop";
import { canBeStrict, fromStrictArguments, toStrictJsonSchema } from "../strict-schema.js";

/** Strict mode for function tools: always, never, or `"auto"` where the schema allows it. */
export type StrictOption = boolean | "auto";

/** An MCP tool as an OpenAI function: name, description, parameters (strict when `strict`), original schema. */
export interface FunctionSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly strict: boolean;
  readonly original: JsonSchema;
}

/** The OpenAI function specs of MCP tools, strict per {@link StrictOption}. */
export function functionSpecs(
  tools: readonly ToolDescriptor[],
  strict: StrictOption = false,
): FunctionSpec[] {
  return toModelTools(tools).map((tool) => {
    const useStrict = strict === true || (strict === "auto" && canBeStrict(tool.inputSchema));
    return {
      name: tool.name,
      description: tool.description,
      parameters: useStrict ? toStrictJsonSchema(tool.inputSchema) : tool.inputSchema,
      strict: useStrict,
      original: tool.inputSchema,
    };
  });
}

/** Undoes the strict rewriting for the tools offered strictly; other arguments pass through. */
export function argumentRestorer(specs: readonly FunctionSpec[]): (name: string, args: unknown) => unknown {
  const strictOnes = new Map(specs.filter((spec) => spec.strict).map((spec) => [spec.name, spec.original]));
  return (name, args) => {
    const original = strictOnes.get(name);
    return original === undefined ? args : fromStrictArguments(original, args);
  };
}

/** Parses a provider's JSON arguments string; text that is not JSON is kept, so the loop can report it. */
export function parseArguments(text: string | null | undefined): unknown {
  if (text === undefined || text === null || text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The JSON a provider expects back for arguments the transcript holds (kept text goes back as it was). */
export function stringifyArguments(args: unknown): string {
  return typeof args === "string" ? args : JSON.stringify(args ?? {});
}
