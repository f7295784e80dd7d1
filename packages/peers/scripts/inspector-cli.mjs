#!/usr/bin/env node
// The official inspector's CLI mode, on Node 20, from the workspace install: `@modelcontextprotocol/inspector-cli`
// (the 1.x line; every `@modelcontextprotocol/inspector` release declares node >=22.7 or >=22.19, this one
// declares nothing and its whole tree runs on 20). Takes the inspector's own argv,
//   node inspector-cli.mjs --cli <command…|URL> [--transport http] --method tools/list
// and runs the CLI's inner entry in this process (no launcher process, no deprecation banner).
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const dir = path.dirname(require.resolve("@modelcontextprotocol/inspector-cli/package.json"));
// The entry reads its client identity from `../package.json`, tested against the working directory:
// run from its build folder so that path is its own manifest. Targets are absolute paths or URLs.
process.chdir(path.join(dir, "build"));
// `--cli` belongs to the launcher; the inner entry takes the target and the options directly.
process.argv = process.argv.filter((arg, i) => i < 2 || arg !== "--cli");
await import(pathToFileURL(path.join(dir, "build", "index.js")).href);
