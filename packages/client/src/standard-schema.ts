/** One problem a Standard Schema found in a value. */
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/**
 * A Standard Schema v1 (https://standardschema.dev), declared structurally so the client depends on no
 * schema library: zod, valibot, arktype and others implement it. The client only calls `validate`.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) =>
      | { readonly value: Output; readonly issues?: undefined }
      | { readonly issues: ReadonlyArray<StandardSchemaIssue> }
      | Promise<
          | { readonly value: Output; readonly issues?: undefined }
          | { readonly issues: ReadonlyArray<StandardSchemaIssue> }
        >;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** The validated (output) type of a Standard Schema. */
export type InferSchemaOutput<S> = S extends StandardSchemaV1<any, infer O> ? O : never;

/** An issue's path as `a.b.0`, or "" at the root. */
export function issuePath(issue: StandardSchemaIssue): string {
  return (issue.path ?? [])
    .map((p) => (typeof p === "object" && p !== null ? String(p.key) : String(p)))
    .join(".");
}
