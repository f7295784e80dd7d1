import type { Program } from "typescript";
import type { EntryPoint } from "./api-entry-points.mjs";

/** Every exported declaration of the entry points' packages' sources: how many, and those without a doc comment. */
export function readExportDocs(
  program: Program,
  entryPoints?: EntryPoint[],
): { total: number; missing: string[] };
