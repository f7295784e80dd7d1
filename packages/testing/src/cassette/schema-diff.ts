/** One structural change between two JSON Schemas. */
export interface SchemaChange {
  /** Where, as a path of schema keywords (`properties.city`, `items`). */
  path: string;
  /** One phrase: `property removed`, `newly required`, `type number → string`. */
  change: string;
  /** Whether a client written against the old schema may break. */
  breaking: boolean;
}

type Schema = Record<string, unknown>;

function types(schema: Schema): string[] {
  const t = schema.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) return t.map(String).sort();
  return [];
}

function asSchema(value: unknown): Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Schema) : {};
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map((v) => JSON.stringify(v)) : [];
}

/**
 * The structural changes from schema `before` to `after` (key order, titles and descriptions do not
 * count). `role` says who reads the schema: for an `input` schema (the client writes values) a removed
 * property, a newly required one, a narrowed type or a removed enum value are breaking; for an `output`
 * schema (the client reads values) a removed property, one no longer required, a changed type or an
 * added enum value are breaking. Walks `properties` and `items`.
 */
export function diffSchemas(
  before: unknown,
  after: unknown,
  role: "input" | "output",
  path = "",
): SchemaChange[] {
  const a = asSchema(before);
  const b = asSchema(after);
  const changes: SchemaChange[] = [];
  const at = (name: string) => (path === "" ? name : `${path}.${name}`);
  const where = path === "" ? "(root)" : path;
  const ta = types(a);
  const tb = types(b);
  if (ta.join() !== tb.join()) {
    // "any" is no type list. Input breaks when a value accepted before is refused now; output breaks
    // when the client may now read a value of a type it did not expect.
    const narrower = (from: string[], to: string[]) =>
      to.length > 0 && (from.length === 0 || from.some((t) => !to.includes(t)));
    const breaking = role === "input" ? narrower(ta, tb) : narrower(tb, ta);
    changes.push({
      path: where,
      change: `type ${ta.join("|") || "any"} → ${tb.join("|") || "any"}`,
      breaking,
    });
  }
  const ea = stringList(a.enum);
  const eb = stringList(b.enum);
  const removedValues = ea.filter((v) => !eb.includes(v));
  const addedValues = eb.filter((v) => !ea.includes(v));
  if (removedValues.length > 0)
    changes.push({
      path: where,
      change: `enum values removed: ${removedValues.join(", ")}`,
      breaking: role === "input",
    });
  if (addedValues.length > 0 && ea.length > 0)
    changes.push({
      path: where,
      change: `enum values added: ${addedValues.join(", ")}`,
      breaking: role === "output",
    });
  const pa = asSchema(a.properties);
  const pb = asSchema(b.properties);
  const ra = new Set(stringList(a.required).map((s) => JSON.parse(s) as string));
  const rb = new Set(stringList(b.required).map((s) => JSON.parse(s) as string));
  for (const name of Object.keys(pa)) {
    if (!(name in pb)) {
      const wasRequired = ra.has(name);
      changes.push({
        path: at(`properties.${name}`),
        change: wasRequired ? "required property removed" : "property removed",
        breaking: wasRequired || role === "output" || b.additionalProperties === false,
      });
    } else changes.push(...diffSchemas(pa[name], pb[name], role, at(`properties.${name}`)));
  }
  for (const name of Object.keys(pb)) {
    if (!(name in pa))
      changes.push({
        path: at(`properties.${name}`),
        change: rb.has(name) ? "required property added" : "optional property added",
        breaking: role === "input" && rb.has(name),
      });
  }
  for (const name of rb) {
    if (!ra.has(name) && name in pa)
      changes.push({ path: at(`properties.${name}`), change: "newly required", breaking: role === "input" });
  }
  for (const name of ra) {
    if (!rb.has(name) && name in pb)
      changes.push({
        path: at(`properties.${name}`),
        change: "no longer required",
        breaking: role === "output",
      });
  }
  if (a.items !== undefined || b.items !== undefined)
    changes.push(...diffSchemas(a.items, b.items, role, at("items")));
  return changes;
}
