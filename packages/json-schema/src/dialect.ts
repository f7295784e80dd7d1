// Which JSON Schema dialect a schema declares, and whether ajv would accept the URI as written.

/** The dialects the default validator supports. */
export type Dialect = "2020-12" | "draft-07";

// The meta-schema ids ajv knows, as written (with or without the empty fragment): another spelling of a
// supported dialect's URI (http for 2020-12, https for draft-07) is refused by ajv's compile.
const META_ID: Record<Dialect, string> = {
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
  "draft-07": "http://json-schema.org/draft-07/schema",
};

/**
 * The dialect `$schema` names (2020-12 when absent, as MCP says since 2025-11-25).
 * @throws TypeError for a dialect other than 2020-12 and draft-07.
 */
export function dialectOf(uri: unknown): Dialect {
  if (uri === undefined) return "2020-12";
  if (typeof uri === "string") {
    const bare = uri.replace(/#$/, "").replace(/^http:/, "https:");
    if (bare === "https://json-schema.org/draft/2020-12/schema") return "2020-12";
    if (bare === "https://json-schema.org/draft-07/schema") return "draft-07";
  }
  throw new TypeError(
    `unsupported JSON Schema dialect ${JSON.stringify(uri)} (2020-12 and draft-07 are supported)`,
  );
}

/** Whether `uri` (a supported dialect's) is spelled as ajv knows it; ajv refuses the other spelling. */
export function isMetaIdAsAjvKnowsIt(uri: unknown, dialect: Dialect): boolean {
  return typeof uri !== "string" || uri.replace(/#$/, "") === META_ID[dialect];
}
