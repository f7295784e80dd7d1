// Preload for running @modelcontextprotocol/conformance on Node 20:
//   node --import packages/peers/src/node20/preload.mjs <conformance dist/index.js> ...
//
// The CLI does `import { globSync } from "fs"`; that export exists only from Node 22, so on Node 20 the ESM
// link step fails ("does not provide an export named 'globSync'"). Patching `fs.globSync` and calling
// `module.syncBuiltinESMExports()` does NOT help: that call refreshes the values of the names the builtin's
// ESM facade already exports, it never adds a name. So this registers a resolve hook (hooks.mjs)
// that maps every `fs` / `node:fs` import to fs.mjs: all of `node:fs` re-exported, plus `globSync`.
// On Node 22+ it does nothing.
import { register } from "node:module";

if (!("globSync" in (await import("node:fs")))) {
  register("./hooks.mjs", import.meta.url);
}
