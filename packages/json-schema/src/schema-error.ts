/**
 * One problem a JSON Schema validator found in a value, in ajv's shape (`verbose` off). Every validator
 * behind {@link JsonSchemaValidator} reports its errors this way, so the client and the server render them
 * alike whichever validator ran.
 */
export interface JsonSchemaError {
  /** JSON Pointer to the value that failed, `""` for the root (`/items/0/name`). */
  instancePath: string;
  /** Where the failing keyword sits in the schema (`#/properties/name/type`); `""` when unknown. */
  schemaPath: string;
  /** The keyword that failed (`type`, `required`, …). */
  keyword: string;
  /** The keyword's details, as ajv names them (`missingProperty`, `additionalProperty`, `limit`, …). */
  params: Record<string, unknown>;
  /** A short sentence without the path (`must be string`). */
  message: string;
}

/**
 * Renders errors as one readable line, each error prefixed by `root` and its instance path:
 * `arguments/name must be string; arguments must NOT have additional properties (extra)`.
 * An empty list reads `<root> are invalid`.
 */
export function formatJsonSchemaErrors(
  errors: ReadonlyArray<{
    instancePath: string;
    keyword?: string;
    params?: Record<string, unknown>;
    message?: string | undefined;
  }>,
  root: string,
): string {
  if (errors.length === 0) return `${root} are invalid`;
  return errors
    .map((e) => {
      const where = `${root}${e.instancePath}`;
      const extra = e.keyword === "additionalProperties" ? ` (${String(e.params?.additionalProperty)})` : "";
      return `${where} ${e.message ?? "is invalid"}${extra}`;
    })
    .join("; ");
}
