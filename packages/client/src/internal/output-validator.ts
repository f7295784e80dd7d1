import type {
  CompiledJsonSchema,
  JsonSchema,
  JsonSchemaValidator,
  JsonSchemaVerdict,
} from "@mcpkit/json-schema";
import { OutputValidationError } from "../errors.js";

type Entry = { compiled: CompiledJsonSchema } | { error: string };

/**
 * Output-schema validators of the tools from the last `tools/list`, compiled once per tool on first use
 * (so listing stays cheap). Compiled by the client's {@link JsonSchemaValidator}: the one given, else
 * `@mcpkit/json-schema`'s default, the same the server uses (the built-in subset, and ajv loaded only by a
 * client that meets a schema outside it), imported on the first check: a client whose tools declare no
 * `outputSchema` never loads it. Nothing is ever fetched: a schema with a network `$ref` cannot be
 * compiled, and the check reports that.
 */
export class OutputValidators {
  private validator: JsonSchemaValidator | undefined;
  private loading: Promise<JsonSchemaValidator> | undefined;
  private schemas = new Map<string, unknown>();
  private compiled = new Map<string, Entry>();

  constructor(validator?: JsonSchemaValidator) {
    this.validator = validator;
  }

  /** The validator: the one given, else the default, imported once. */
  private async engine(): Promise<JsonSchemaValidator> {
    if (this.validator !== undefined) return this.validator;
    this.loading ??= import("@mcpkit/json-schema").then((m) => m.createJsonSchemaValidator());
    this.validator = await this.loading;
    return this.validator;
  }

  /** Replaces the known output schemas (tools without one are absent). */
  reset(tools: ReadonlyArray<{ name: string; outputSchema?: unknown }>): void {
    this.schemas = new Map();
    this.compiled = new Map();
    for (const tool of tools) {
      if (tool.outputSchema !== undefined && tool.outputSchema !== null)
        this.schemas.set(tool.name, tool.outputSchema);
    }
  }

  /** Whether `tool` has an output schema to check. */
  has(tool: string): boolean {
    return this.schemas.has(tool);
  }

  /**
   * A foreign server's schema in a dialect the validator does not speak (draft-04, 2019-09, another spelling
   * of a URI) is judged by 2020-12 rules rather than refused: the server is not ours to fix, and its tool
   * must stay callable. A schema that fails for any other reason cannot be used.
   */
  private compile(validator: JsonSchemaValidator, schema: JsonSchema): Entry {
    try {
      return { compiled: validator.compile(schema) };
    } catch (error) {
      if (typeof schema === "object" && schema !== null && "$schema" in schema) {
        const { $schema: _dialect, ...rest } = schema;
        try {
          return { compiled: validator.compile(rest as JsonSchema) };
        } catch {}
      }
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * Checks a non-error result of `tool` against its output schema, if it has one.
   * @throws OutputValidationError naming the tool on a mismatch, a missing `structuredContent`, or a schema
   *   that cannot be compiled.
   */
  async check(tool: string, structured: unknown): Promise<void> {
    const schema = this.schemas.get(tool);
    if (schema === undefined) return;
    if (structured === undefined) {
      throw new OutputValidationError(
        tool,
        `Tool "${tool}" declares an outputSchema but returned no structuredContent`,
      );
    }
    let entry = this.compiled.get(tool);
    if (!entry) {
      const compiled = this.compiled;
      const validator = await this.engine();
      // Another check of the same tool may have compiled it while the engine loaded; a new list (reset)
      // meanwhile keeps its own map, so this schema's entry stays out of it.
      entry = compiled.get(tool) ?? this.compile(validator, schema as JsonSchema);
      compiled.set(tool, entry);
    }
    const cannotBeUsed = (detail: string) =>
      new OutputValidationError(tool, `The outputSchema of tool "${tool}" cannot be used: ${detail}`);
    if ("error" in entry) throw cannotBeUsed(entry.error);
    let verdict: JsonSchemaVerdict;
    try {
      verdict = await entry.compiled.validate(structured);
    } catch (error) {
      // A compile error found after `compile` returned (the default's ajv compiles in the background).
      throw cannotBeUsed(error instanceof Error ? error.message : String(error));
    }
    if (!verdict.ok) {
      const errors = verdict.errors.map((e) => ({ instancePath: e.instancePath, message: e.message }));
      const first = errors[0];
      throw new OutputValidationError(
        tool,
        `The structuredContent of tool "${tool}" does not match its outputSchema${first ? `: ${first.instancePath || "(root)"} ${first.message}` : ""}`,
        errors,
      );
    }
  }
}
