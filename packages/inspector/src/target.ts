/** How an HTTP target is reached: `auto` negotiates (modern, then legacy, then HTTP+SSE). */
export type HttpMode = "auto" | "modern" | "legacy" | "sse";

/** A server the inspector connects to: a command it spawns (stdio) or a URL (HTTP). */
export type InspectorTarget =
  | {
      kind: "stdio";
      /** A name for the tab (default: the command line). */
      name?: string;
      command: string;
      args?: string[];
      env?: Record<string, string>;
      cwd?: string;
    }
  | {
      kind: "http";
      name?: string;
      url: string;
      /** Default `auto`. */
      mode?: HttpMode;
      headers?: Record<string, string>;
    };

/**
 * Reads a target as a person types it: a `http(s)://` URL, or a command line split on spaces
 * (`node server.js stdio`). Quotes are not interpreted: a command needing them goes in a config file.
 * @throws Error when the text is empty.
 */
export function parseTarget(text: string, mode: HttpMode = "auto"): InspectorTarget {
  const trimmed = text.trim();
  if (trimmed === "") throw new Error("the target is empty: give a URL or a command line");
  if (/^https?:\/\//i.test(trimmed)) return { kind: "http", url: new URL(trimmed).href, mode };
  const [command, ...args] = trimmed.split(/\s+/);
  return { kind: "stdio", command: command ?? "", args };
}

/** The tab label of a target. */
export function targetLabel(target: InspectorTarget): string {
  if (target.name) return target.name;
  return target.kind === "http" ? target.url : [target.command, ...(target.args ?? [])].join(" ");
}

/** Whether `value` is a well-formed {@link InspectorTarget} (the API's input check). */
export function isTarget(value: unknown): value is InspectorTarget {
  if (typeof value !== "object" || value === null) return false;
  const t = value as Record<string, unknown>;
  const strings = (v: unknown) =>
    v === undefined || (Array.isArray(v) && v.every((x) => typeof x === "string"));
  const record = (v: unknown) =>
    v === undefined ||
    (typeof v === "object" && v !== null && Object.values(v).every((x) => typeof x === "string"));
  if (t.kind === "stdio")
    return typeof t.command === "string" && t.command !== "" && strings(t.args) && record(t.env);
  if (t.kind === "http") {
    if (typeof t.url !== "string" || !/^https?:\/\//i.test(t.url)) return false;
    return (
      (t.mode === undefined || ["auto", "modern", "legacy", "sse"].includes(t.mode as string)) &&
      record(t.headers)
    );
  }
  return false;
}
