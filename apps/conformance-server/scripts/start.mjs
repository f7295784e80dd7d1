#!/usr/bin/env node
// `pnpm start`: runs the built server (dist/main.js), building it first when it is missing, so a fresh
// clone works with `PORT=3000 pnpm start` and a built tree starts with no TypeScript loader.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entry = path.join(appDir, "dist", "main.js");
if (!existsSync(entry)) {
  execFileSync(path.resolve(appDir, "../../node_modules/.bin/tsup"), ["--silent"], {
    cwd: appDir,
    stdio: "inherit",
  });
}
await import(pathToFileURL(entry).href);
