import type { Program } from "typescript";
import type { EntryPoint } from "./api-entry-points.mjs";

/** One export of an entry point, as the report shows it. */
export interface SurfaceExport {
  name: string;
  /** Its declarations' signatures, one string each (a name can be a value and a type). */
  lines: string[];
  /** Whether it carries a JSDoc comment. */
  documented: boolean;
  /** Where it is declared, relative to the repository. */
  file: string;
  line: number;
}

/** The surface of one package. */
export interface PackageSurface {
  pkg: string;
  dir: string;
  entries: { specifier: string; exports: SurfaceExport[] }[];
}

/** One TypeScript program over the entry points' sources. */
export function createSurfaceProgram(entryPoints?: EntryPoint[]): Program;

/** The surface of the entry points, package by package. */
export function readSurface(entryPoints?: EntryPoint[], program?: Program): PackageSurface[];

/** Whether one of a symbol's declarations carries a JSDoc comment. */
export function hasDocComment(symbol: unknown): boolean;
