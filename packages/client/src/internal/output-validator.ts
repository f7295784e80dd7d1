import type { Ajv2020, ValidateFunction } from "ajv/dist/2020.js";
import { OutputValidationError } from "../errors.js";

type Entry = { validate: ValidateFunction } | { error: string };

type AjvConstructor = new (options: Record<string, unknown>) => Ajv2020;
let loading: Promise<AjvConstructor> | undefined;

// ajv is loaded on first use only: importing it costs more than the rest of the client.
function loadAjv(): Promise<AjvConstructor> {
  loading ??= import("ajv/dist/2020.js").then((m) => m.Ajv2020 as unknown as AjvConstructor);
  return loading;
}

/**
 * Output-schema validators of the tools from the last `tools/list`, compiled once per tool on first use
 * (so listing stays cheap, and ajv is loaded only by a client that meets an output schema). Ajv never
 * fetches a `$ref`: a network reference stays unresolved, the schema fails to compile, and the check
 * reports that.
 */
export class OutputValidators {
  private ajv: Ajv2020 | undefined;
  private schemas = new Map<string, unknown>();
  private compiled = new Map<string, Entry>();

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
      const Ajv = await loadAjv();
      // validateSchema off: servers declare other dialects in `$schema` (SDK v1 emits draft-07), which
      // Ajv2020 would refuse to compile; their keywords are checked with 2020-12 semantics.
      this.ajv ??= new Ajv({ strict: false, validateFormats: false, validateSchema: false });
      try {
        entry = { validate: this.ajv.compile(schema as object) };
      } catch (error) {
        entry = { error: error instanceof Error ? error.message : String(error) };
      } finally {
        // Ajv caches by schema object for ever; each list brings new schemas, so drop it (we keep our own).
        try {
          this.ajv.removeSchema(schema as object);
        } catch {
          // Nothing was cached.
        }
      }
      // A later reset() may have replaced the maps while ajv loaded; cache only into the current one.
      if (this.schemas.get(tool) === schema) this.compiled.set(tool, entry);
    }
    if ("error" in entry) {
      throw new OutputValidationError(
        tool,
        `The outputSchema of tool "${tool}" cannot be used: ${entry.error}`,
      );
    }
    if (!entry.validate(structured)) {
      const errors = (entry.validate.errors ?? []).map((e) => ({
        instancePath: e.instancePath,
        message: e.message ?? "invalid",
      }));
      const first = errors[0];
      throw new OutputValidationError(
        tool,
        `The structuredContent of tool "${tool}" does not match its outputSchema${first ? `: ${first.instancePath || "(root)"} ${first.message}` : ""}`,
        errors,
      );
    }
  }
}
