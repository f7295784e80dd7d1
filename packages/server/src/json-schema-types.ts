/**
 * A JSON Schema as TypeScript sees one written `as const`: every keyword the type inference reads, all
 * readonly, so a literal schema is accepted as it is. (`JsonSchema` of `@mcpkit/protocol`, with mutable
 * arrays, is the shape of a schema built at run time.)
 */
export interface ReadonlyJsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: { readonly [name: string]: ReadonlyJsonSchema | boolean };
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}

/**
 * The TypeScript type of the values a literal JSON Schema accepts — the `FromSchema` approach, for the
 * keywords tool schemas use: `type` (one or several), `properties` with `required` (the rest optional),
 * `items`, `enum`, `const`, `anyOf` / `oneOf`, nested objects. Anything else reads as `unknown`.
 *
 * ```ts
 * const schema = { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } },
 *   required: ["city"] } as const;
 * type Args = FromJsonSchema<typeof schema>; // { city: string; days?: number }
 * ```
 */
export type FromJsonSchema<S, Depth extends unknown[] = []> = Depth["length"] extends 8
  ? unknown
  : S extends true
    ? unknown
    : S extends false
      ? never
      : S extends { readonly const: infer C }
        ? C
        : S extends { readonly enum: readonly (infer E)[] }
          ? E
          : S extends { readonly anyOf: readonly (infer V)[] }
            ? FromJsonSchema<V, [...Depth, 1]>
            : S extends { readonly oneOf: readonly (infer V)[] }
              ? FromJsonSchema<V, [...Depth, 1]>
              : S extends { readonly type: readonly (infer T)[] }
                ? ByType<T, S, Depth>
                : S extends { readonly type: infer T }
                  ? ByType<T, S, Depth>
                  : S extends { readonly properties: object }
                    ? ObjectOf<S, Depth>
                    : unknown;

type ByType<T, S, Depth extends unknown[]> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? S extends { readonly items: infer I }
            ? FromJsonSchema<I, [...Depth, 1]>[]
            : unknown[]
          : T extends "object"
            ? ObjectOf<S, Depth>
            : unknown;

type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type ObjectOf<S, Depth extends unknown[]> = S extends { readonly properties: infer P }
  ? Flatten<
      { -readonly [K in keyof P & RequiredKeys<S>]: FromJsonSchema<P[K], [...Depth, 1]> } & {
        -readonly [K in Exclude<keyof P, RequiredKeys<S>>]?: FromJsonSchema<P[K], [...Depth, 1]>;
      }
    >
  : Record<string, unknown>;

type Flatten<T> = { [K in keyof T]: T[K] };

/**
 * The argument type of a handler for a JSON Schema: inferred with {@link FromJsonSchema} when the schema is
 * a literal object schema (written `as const`, so its `type` is the literal `"object"`); `any` otherwise,
 * so a handler over a schema built at run time states its own argument type.
 */
export type ArgsOfJsonSchema<S> = S extends { readonly type: "object" }
  ? IsWidened<S> extends true
    ? any
    : FromJsonSchema<S>
  : any;

/**
 * True when part of an object schema lost its literal types (`type: "object" as const` on a schema whose
 * properties say `type: string`, or `required: string[]`): inferring from it would make up a type the
 * handler never stated, so it stays `any`.
 */
type IsWidened<S> =
  | (S extends { readonly required: readonly (infer R)[] } ? (string extends R ? true : never) : never)
  | (S extends { readonly properties: infer P }
      ? {
          [K in keyof P]: P[K] extends { readonly type: infer T } ? (string extends T ? true : never) : never;
        }[keyof P]
      : never) extends never
  ? false
  : true;
