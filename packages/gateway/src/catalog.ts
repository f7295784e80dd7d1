import type { Prompt, Resource, ResourceTemplate, Tool } from "@mcpkit/protocol";
import { NameCollisionError } from "./errors.js";
import { matchesGlob } from "./rules.js";
import type { UpstreamSettings } from "./types.js";
import type { UpstreamCatalog } from "./upstream.js";

/** An item of one upstream under the name the gateway offers it by. */
export interface Exposed<T> {
  /** The name (tools, prompts) or URI (resources, templates) clients see. */
  readonly name: string;
  /** The upstream's name. */
  readonly upstream: string;
  /** The item as the upstream listed it (its own name). */
  readonly item: T;
}

/** Everything the gateway offers, merged from every upstream. */
export interface MergedCatalog {
  tools: Exposed<Tool>[];
  prompts: Exposed<Prompt>[];
  resources: Exposed<Resource>[];
  templates: Exposed<ResourceTemplate>[];
}

/** One upstream's listing and settings, as {@link mergeCatalogs} takes them. */
export interface CatalogSource {
  readonly upstream: string;
  readonly settings: UpstreamSettings;
  readonly catalog: UpstreamCatalog;
}

/**
 * Merges the upstreams' listings: tools and prompts under `prefix + separator + name` (names kept as
 * they are without a prefix), resources and templates under their own URIs; each upstream's
 * `include`/`exclude` applied to its own names first.
 * @throws NameCollisionError naming both upstreams when two items would have the same name.
 */
export function mergeCatalogs(sources: readonly CatalogSource[], separator: string): MergedCatalog {
  const merged: MergedCatalog = { tools: [], prompts: [], resources: [], templates: [] };
  const seen = {
    tool: new Map<string, string>(),
    prompt: new Map<string, string>(),
    resource: new Map<string, string>(),
    "resource template": new Map<string, string>(),
  };
  const add = <T>(
    kind: keyof typeof seen,
    into: Exposed<T>[],
    upstream: string,
    own: string,
    exposed: string,
    item: T,
  ) => {
    const where = `${upstream}:${own}`;
    const before = seen[kind].get(exposed);
    if (before !== undefined) throw new NameCollisionError(kind, exposed, [before, where]);
    seen[kind].set(exposed, where);
    into.push({ name: exposed, upstream, item });
  };
  for (const { upstream, settings, catalog } of sources) {
    const keep = (own: string) =>
      (settings.include === undefined || settings.include.some((p) => matchesGlob(p, own))) &&
      !settings.exclude.some((p) => matchesGlob(p, own));
    const named = (own: string) =>
      settings.prefix === undefined ? own : `${settings.prefix}${separator}${own}`;
    for (const tool of catalog.tools) {
      if (keep(tool.name)) add("tool", merged.tools, upstream, tool.name, named(tool.name), tool);
    }
    for (const prompt of catalog.prompts) {
      if (keep(prompt.name)) add("prompt", merged.prompts, upstream, prompt.name, named(prompt.name), prompt);
    }
    for (const resource of catalog.resources) {
      if (keep(resource.uri))
        add("resource", merged.resources, upstream, resource.uri, resource.uri, resource);
    }
    for (const template of catalog.templates) {
      const uri = template.uriTemplate;
      if (keep(uri)) add("resource template", merged.templates, upstream, uri, uri, template);
    }
  }
  return merged;
}
