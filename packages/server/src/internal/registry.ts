import { findXMcpHeaderProblem, type JsonSchema, toolNameProblem } from "@mcpkit/protocol";
import { isStandardSchema } from "../standard-schema.js";
import type {
  Completer,
  PromptConfig,
  PromptHandler,
  ResourceConfig,
  ResourceHandler,
  ResourceTemplateConfig,
  ResourceTemplateHandler,
  SchemaInput,
  TaskSupport,
  ToolConfig,
  ToolHandler,
} from "../types.js";
import { type ParamHeader, paramHeadersOf } from "./param-headers.js";
import type { CompiledSchema, SchemaCompiler } from "./schema.js";
import { compileUriTemplate, type UriTemplateMatcher } from "./uri-template.js";

/** The kinds of list a client can be told changed. */
export type ListKind = "tools" | "prompts" | "resources";

/** A registered tool: its descriptors for each era, its compiled schemas and its handler. */
export interface ToolEntry {
  name: string;
  /** The `Tool` object of a modern `tools/list`. */
  descriptor: Record<string, unknown>;
  /** The `Tool` object of a legacy `tools/list` (object-rooted outputSchema only). */
  legacyDescriptor: Record<string, unknown>;
  input: CompiledSchema | undefined;
  output: CompiledSchema | undefined;
  paramHeaders: ParamHeader[];
  handler: ToolHandler<any>;
  config: ToolConfig<any>;
  taskSupport: TaskSupport;
}

/** A registered static resource: its URI, its `resources/list` descriptor and its handler. */
export interface ResourceEntry {
  uri: string;
  descriptor: Record<string, unknown>;
  mimeType: string | undefined;
  handler: ResourceHandler;
}

/** A registered resource template: its URI matcher, descriptor, handler, completers and `list`. */
export interface TemplateEntry {
  matcher: UriTemplateMatcher;
  descriptor: Record<string, unknown>;
  mimeType: string | undefined;
  handler: ResourceTemplateHandler;
  complete: Record<string, Completer> | undefined;
  list: ResourceTemplateConfig["list"];
}

/** A registered prompt: its descriptor, its argument check, the required argument names and its handler. */
export interface PromptEntry {
  name: string;
  descriptor: Record<string, unknown>;
  description: string | undefined;
  argsCheck: CompiledSchema | undefined;
  required: string[];
  handler: PromptHandler<any>;
  complete: Record<string, Completer> | undefined;
}

function pick<T extends object>(source: T, keys: ReadonlyArray<keyof T>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (source[key] !== undefined) out[key as string] = source[key];
  return out;
}

/**
 * The registry: tools, resources, templates and prompts with everything derived from them (JSON Schemas,
 * compiled validators, list payloads), built at registration and shared by every connection.
 */
export class Registry {
  readonly tools = new Map<string, ToolEntry>();
  readonly resources = new Map<string, ResourceEntry>();
  readonly templates = new Map<string, TemplateEntry>();
  readonly prompts = new Map<string, PromptEntry>();
  /** Kinds that ever had an entry: their capability stays declared once it was. */
  readonly declared = { tools: false, prompts: false, resources: false, completions: false, tasks: false };
  private cache = new Map<string, unknown[]>();

  constructor(
    private readonly compiler: SchemaCompiler,
    private readonly onChange: (kind: ListKind) => void,
  ) {}

  /** A list payload, built on first use after each change. */
  list(name: "tools" | "legacyTools" | "prompts" | "resources" | "templates"): unknown[] {
    let items = this.cache.get(name);
    if (items === undefined) {
      switch (name) {
        case "tools":
          items = [...this.tools.values()].map((t) => t.descriptor);
          break;
        case "legacyTools":
          items = [...this.tools.values()].map((t) => t.legacyDescriptor);
          break;
        case "prompts":
          items = [...this.prompts.values()].map((p) => p.descriptor);
          break;
        case "resources":
          items = [...this.resources.values()].map((r) => r.descriptor);
          for (const t of this.templates.values()) {
            for (const r of t.list?.() ?? []) {
              items.push(
                t.mimeType !== undefined && r.mimeType === undefined
                  ? Object.assign({}, r, { mimeType: t.mimeType })
                  : r,
              );
            }
          }
          // Template listings may change without a registration: never cache them.
          if (this.templates.size > 0 && [...this.templates.values()].some((t) => t.list)) return items;
          break;
        case "templates":
          items = [...this.templates.values()].map((t) => t.descriptor);
          break;
      }
      this.cache.set(name, items);
    }
    return items;
  }

  private changed(kind: ListKind): void {
    if (kind === "tools") {
      this.cache.delete("tools");
      this.cache.delete("legacyTools");
    } else if (kind === "prompts") {
      this.cache.delete("prompts");
    } else {
      this.cache.delete("resources");
      this.cache.delete("templates");
    }
    this.onChange(kind);
  }

  addTool(name: string, config: ToolConfig<any>, handler: ToolHandler<any>): () => void {
    // The spec's tool name rules (SEP-986); a name that breaks them is refused, naming the rule.
    const problem = typeof name === "string" ? toolNameProblem(name) : "it is not a string";
    if (problem !== undefined) {
      throw new TypeError(
        `Tool name ${JSON.stringify(name)} must be 1-128 characters of A-Z a-z 0-9 _ - . (${problem})`,
      );
    }
    if (this.tools.has(name))
      throw new TypeError(`A tool named ${JSON.stringify(name)} is already registered`);
    if (typeof handler !== "function") throw new TypeError(`The handler of tool ${name} is not a function`);
    const what = `Tool ${name}`;
    const schema: SchemaInput | undefined =
      config.inputSchema ?? (handler as { inputSchema?: SchemaInput }).inputSchema;
    const input =
      schema === undefined ? undefined : this.compiler.compile(schema, "input", `${what} inputSchema`, true);
    const inputJson: JsonSchema = input?.json ?? { type: "object", properties: {} };
    const headerProblem = findXMcpHeaderProblem(inputJson);
    if (headerProblem !== undefined) throw new TypeError(`${what}: ${headerProblem}`);
    const output =
      config.outputSchema === undefined
        ? undefined
        : this.compiler.compile(config.outputSchema, "output", `${what} outputSchema`, false);
    const taskSupport = config.taskSupport ?? "forbidden";
    const descriptor: Record<string, unknown> = {
      name,
      ...pick(config, ["title", "description"]),
      inputSchema: inputJson,
    };
    if (output) descriptor.outputSchema = output.json;
    Object.assign(descriptor, pick(config, ["annotations", "icons", "_meta"]));
    const legacyDescriptor = { ...descriptor };
    // Before 2026-07-28 an outputSchema's root must be an object.
    if (output && output.json.type !== "object") delete legacyDescriptor.outputSchema;
    const entry: ToolEntry = {
      name,
      descriptor,
      legacyDescriptor,
      input,
      output,
      paramHeaders: paramHeadersOf(inputJson),
      handler,
      config,
      taskSupport,
    };
    this.tools.set(name, entry);
    this.declared.tools = true;
    if (taskSupport !== "forbidden") this.declared.tasks = true;
    this.changed("tools");
    return () => {
      if (this.tools.get(name) === entry) {
        this.tools.delete(name);
        this.changed("tools");
      }
    };
  }

  addResource(uri: string, config: ResourceConfig, handler: ResourceHandler): () => void {
    if (typeof uri !== "string" || uri.length === 0) throw new TypeError("A resource needs a URI");
    if (this.resources.has(uri)) throw new TypeError(`A resource ${uri} is already registered`);
    if (typeof config?.name !== "string") throw new TypeError(`Resource ${uri} needs a name`);
    const mimeType = config.mimeType ?? "text/plain";
    const descriptor = {
      uri,
      ...pick(config, ["name", "title", "description"]),
      mimeType,
      ...pick(config, ["size", "annotations", "icons", "_meta"]),
    };
    const entry: ResourceEntry = { uri, descriptor, mimeType, handler };
    this.resources.set(uri, entry);
    this.declared.resources = true;
    this.changed("resources");
    return () => {
      if (this.resources.get(uri) === entry) {
        this.resources.delete(uri);
        this.changed("resources");
      }
    };
  }

  addTemplate(
    template: string,
    config: ResourceTemplateConfig,
    handler: ResourceTemplateHandler,
  ): () => void {
    if (this.templates.has(template))
      throw new TypeError(`A resource template ${template} is already registered`);
    if (typeof config?.name !== "string") throw new TypeError(`Resource template ${template} needs a name`);
    const matcher = compileUriTemplate(template);
    const descriptor = {
      uriTemplate: template,
      ...pick(config, ["name", "title", "description", "mimeType", "annotations", "icons", "_meta"]),
    };
    const entry: TemplateEntry = {
      matcher,
      descriptor,
      // A read's contents get `text/plain` unless told, as a static resource's do.
      mimeType: config.mimeType ?? "text/plain",
      handler,
      complete: config.complete,
      list: config.list,
    };
    this.templates.set(template, entry);
    this.declared.resources = true;
    this.declared.completions = true;
    this.changed("resources");
    return () => {
      if (this.templates.get(template) === entry) {
        this.templates.delete(template);
        this.changed("resources");
      }
    };
  }

  addPrompt(name: string, config: PromptConfig<any>, handler: PromptHandler<any>): () => void {
    if (this.prompts.has(name))
      throw new TypeError(`A prompt named ${JSON.stringify(name)} is already registered`);
    const what = `Prompt ${name}`;
    let argsCheck: CompiledSchema | undefined;
    let args = config.arguments;
    let required = (args ?? []).filter((a) => a.required).map((a) => a.name);
    if (config.argsSchema !== undefined) {
      if (args !== undefined) throw new TypeError(`${what}: give either arguments or argsSchema, not both`);
      argsCheck = this.compiler.compile(config.argsSchema, "input", `${what} argsSchema`, true);
      const props = (argsCheck.json.properties ?? {}) as Record<string, JsonSchema>;
      required = Array.isArray(argsCheck.json.required)
        ? argsCheck.json.required.filter((r) => typeof r === "string")
        : [];
      args = Object.entries(props).map(([argName, prop]) => {
        const arg: { name: string; description?: string; required?: boolean } = { name: argName };
        if (typeof prop?.description === "string") arg.description = prop.description;
        if (required.includes(argName)) arg.required = true;
        return arg;
      });
      // A JSON Schema given for string arguments is checked as is; a Standard Schema too.
      if (!isStandardSchema(config.argsSchema) && argsCheck.json.type !== "object") {
        throw new TypeError(`${what}: argsSchema must describe an object`);
      }
    }
    const descriptor: Record<string, unknown> = {
      name,
      ...pick(config, ["title", "description"]),
      ...(args === undefined ? {} : { arguments: args }),
      ...pick(config, ["icons", "_meta"]),
    };
    const entry: PromptEntry = {
      name,
      descriptor,
      description: config.description,
      argsCheck,
      required,
      handler,
      complete: config.complete,
    };
    this.prompts.set(name, entry);
    this.declared.prompts = true;
    this.declared.completions = true;
    this.changed("prompts");
    return () => {
      if (this.prompts.get(name) === entry) {
        this.prompts.delete(name);
        this.changed("prompts");
      }
    };
  }

  /** The static resource or the first template (in registration order) that matches `uri`. */
  findResource(
    uri: string,
  ):
    | { kind: "static"; entry: ResourceEntry }
    | { kind: "template"; entry: TemplateEntry; variables: Record<string, string> }
    | undefined {
    const entry = this.resources.get(uri);
    if (entry) return { kind: "static", entry };
    for (const template of this.templates.values()) {
      const variables = template.matcher.match(uri);
      if (variables) return { kind: "template", entry: template, variables };
    }
    return undefined;
  }
}
