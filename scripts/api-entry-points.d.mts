/** One public entry point of a published package. */
export interface EntryPoint {
  /** The package name: `@mcpkit/server`. */
  pkg: string;
  /** The package's folder. */
  dir: string;
  /** The export's subpath: `.`, `./node`. */
  subpath: string;
  /** The source file its "@mcpkit/source" condition names. */
  source: string;
  /** The built ESM .d.ts, when the export names one. */
  types: string | undefined;
}

/** The repository root, with a trailing separator. */
export const repoRoot: string;

/** Every public entry point, in package then export order. */
export function publicEntryPoints(): EntryPoint[];

/** The import specifier of an entry point: `@mcpkit/server`, `@mcpkit/server/node`. */
export function specifier(entry: EntryPoint): string;
