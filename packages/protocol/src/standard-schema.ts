/** One problem a Standard Schema found in a value. */
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** What `~standard.validate` returns: the typed value, or the issues. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/**
 * A Standard Schema v1 (https://standardschema.dev): zod 4, valibot, arktype and others implement it.
 * Declared structurally, once, so neither the client nor the server depends on a schema library: the client
 * only calls `validate` (a tool's `structured` typed by a schema), the server also reads the optional
 * Standard JSON Schema extension `jsonSchema` (zod ≥ 4.2, arktype, valibot through
 * `@valibot/to-json-schema`) for `tools/list`.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/** The validated (output) type of a Standard Schema. */
export type InferOutput<S> = S extends StandardSchemaV1<any, infer O> ? O : never;
