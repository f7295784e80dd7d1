import { firstDifference } from "./json-difference.js";
import { diffSchemas, type SchemaChange } from "./schema-diff.js";
import { itemKey, type ServerSurface, type SurfaceItem } from "./surface.js";

/** What kind of thing changed. */
export type SurfaceKind = "tool" | "prompt" | "resource" | "template" | "capability";

/** One change between two server surfaces. */
export interface SurfaceChange {
  kind: SurfaceKind;
  /** The tool or prompt name, the resource URI, the template, or the capability's key. */
  name: string;
  change: "added" | "removed" | "changed";
  /** Whether a client written against the first surface may break against the second. */
  breaking: boolean;
  /** For a change: what changed inside, one phrase each (`inputSchema.properties.city: newly required`). */
  details: string[];
}

/** The result of {@link diffSurfaces}. */
export interface SurfaceDiff {
  changes: SurfaceChange[];
  /** True when any change is breaking. */
  breaking: boolean;
}

const KINDS: Array<[keyof Omit<ServerSurface, "capabilities">, SurfaceKind]> = [
  ["tools", "tool"],
  ["prompts", "prompt"],
  ["resources", "resource"],
  ["resourceTemplates", "template"],
];

function schemaDetails(prefix: string, changes: SchemaChange[]): Array<[string, boolean]> {
  return changes.map((c) => [`${prefix}${c.path === "(root)" ? "" : `.${c.path}`}: ${c.change}`, c.breaking]);
}

function promptArguments(item: SurfaceItem): Map<string, boolean> {
  const list = Array.isArray(item.arguments) ? (item.arguments as Array<Record<string, unknown>>) : [];
  return new Map(list.map((a) => [String(a.name), a.required === true]));
}

function itemDetails(kind: SurfaceKind, a: SurfaceItem, b: SurfaceItem): Array<[string, boolean]> {
  const details: Array<[string, boolean]> = [];
  if (kind === "tool") {
    details.push(...schemaDetails("inputSchema", diffSchemas(a.inputSchema, b.inputSchema, "input")));
    if (a.outputSchema !== undefined && b.outputSchema === undefined)
      details.push(["outputSchema removed", true]);
    else if (a.outputSchema !== undefined || b.outputSchema !== undefined)
      details.push(...schemaDetails("outputSchema", diffSchemas(a.outputSchema, b.outputSchema, "output")));
  }
  if (kind === "prompt") {
    const pa = promptArguments(a);
    const pb = promptArguments(b);
    for (const [name, required] of pa) {
      if (!pb.has(name)) details.push([`argument ${name} removed`, required]);
      else if (!required && pb.get(name)) details.push([`argument ${name} newly required`, true]);
    }
    for (const [name, required] of pb) if (!pa.has(name)) details.push([`argument ${name} added`, required]);
  }
  if (kind === "resource" && a.mimeType !== b.mimeType)
    details.push([`mimeType ${String(a.mimeType)} → ${String(b.mimeType)}`, true]);
  // Anything else (a description, annotations, a title): a change, not a breaking one.
  const skip = new Set(["inputSchema", "outputSchema", "arguments", "mimeType"]);
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (skip.has(key)) continue;
    const d = firstDifference(a[key], b[key]);
    if (d) details.push([`${key}${d.path.slice(1)} changed`, false]);
  }
  return details;
}

/**
 * What changed from surface `a` to surface `b` (two servers, or two versions of one): tools, prompts,
 * resources, templates and top-level capabilities added, removed or changed, tool schemas compared
 * structurally ({@link diffSchemas}); a list only one side fetched is not compared. Breaking: anything removed; a tool whose input now refuses what it
 * took or whose output no longer gives what it gave (a removed or newly required property, a narrowed
 * type); a prompt argument removed or newly required; a resource's MIME type changed.
 */
export function diffSurfaces(a: ServerSurface, b: ServerSurface): SurfaceDiff {
  const changes: SurfaceChange[] = [];
  for (const [field, kind] of KINDS) {
    const listA = a[field];
    const listB = b[field];
    // A list one side never fetched says nothing about what changed.
    if (listA === undefined || listB === undefined) continue;
    const before = new Map(listA.map((item) => [itemKey(field, item), item]));
    const after = new Map(listB.map((item) => [itemKey(field, item), item]));
    for (const [name, item] of before) {
      const other = after.get(name);
      if (other === undefined) {
        changes.push({ kind, name, change: "removed", breaking: true, details: [] });
        continue;
      }
      const details = itemDetails(kind, item, other);
      if (details.length > 0)
        changes.push({
          kind,
          name,
          change: "changed",
          breaking: details.some(([, x]) => x),
          details: details.map(([d, x]) => (x ? `${d} (breaking)` : d)),
        });
    }
    for (const name of after.keys())
      if (!before.has(name)) changes.push({ kind, name, change: "added", breaking: false, details: [] });
  }
  for (const key of new Set([...Object.keys(a.capabilities), ...Object.keys(b.capabilities)])) {
    const ca = a.capabilities[key];
    const cb = b.capabilities[key];
    if (cb === undefined)
      changes.push({ kind: "capability", name: key, change: "removed", breaking: true, details: [] });
    else if (ca === undefined)
      changes.push({ kind: "capability", name: key, change: "added", breaking: false, details: [] });
    else {
      const d = firstDifference(ca, cb);
      if (d)
        changes.push({
          kind: "capability",
          name: key,
          change: "changed",
          breaking: false,
          details: [`${key}${d.path.slice(1)} changed`],
        });
    }
  }
  return { changes, breaking: changes.some((c) => c.breaking) };
}

/** The text form of a diff: one line per change, `!` marking a breaking one, and a closing summary. */
export function formatSurfaceDiff(diff: SurfaceDiff): string {
  if (diff.changes.length === 0) return "no changes\n";
  const lines: string[] = [];
  for (const c of diff.changes) {
    const sign = c.change === "added" ? "+" : c.change === "removed" ? "-" : "~";
    lines.push(
      `${c.breaking ? "!" : " "} ${sign} ${c.kind} ${c.name}${c.change === "changed" ? "" : ` ${c.change}`}${c.breaking ? " (breaking)" : ""}`,
    );
    for (const d of c.details) lines.push(`      ${d}`);
  }
  const breaking = diff.changes.filter((c) => c.breaking).length;
  lines.push(`${diff.changes.length} change${diff.changes.length === 1 ? "" : "s"}, ${breaking} breaking`);
  return `${lines.join("\n")}\n`;
}
