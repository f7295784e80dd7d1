// Bundles every fixture entry once with esbuild, from the workspace sources (`@mcpkit/source`): what each
// runtime runs is one plain JavaScript file, as a user's bundler would make it for that target.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { appDir } from "./runtimes.mjs";

export const distDir = path.join(appDir, "dist");
const entry = (name) => path.join(appDir, "src", "entries", `${name}.ts`);
// The runtime examples of the docs app, run as they are documented (the docs cell).
const example = (name) => path.join(appDir, "..", "docs", "examples", "runtimes", `${name}.ts`);
// Bundled CommonJS dependencies (ajv) call require(): Node, Bun and Deno all provide node:module.
const REQUIRE_BANNER =
  "import { createRequire as __mcpkitRequire } from 'node:module'; const require = __mcpkitRequire(import.meta.url);";

/** Builds `dist/*.mjs` (scripts, workers) and `dist/client-browser.js` (a page's classic script). */
export async function bundleAll() {
  rmSync(distDir, { recursive: true, force: true });
  mkdirSync(distDir, { recursive: true });
  const common = { bundle: true, outdir: distDir, logLevel: "error", outExtension: { ".js": ".mjs" } };
  await Promise.all([
    build({
      ...common,
      entryPoints: [
        ...[
          "server-node",
          "server-bun",
          "server-deno",
          "client-http",
          "stdio-server",
          "stdio-client",
          "docs-check",
        ].map((name) => ({ in: entry(name), out: name })),
        { in: example("deno-server"), out: "docs-deno-server" },
        { in: example("bun-server"), out: "docs-bun-server" },
      ],
      platform: "node",
      format: "esm",
      target: "node20",
      conditions: ["@mcpkit/source"],
      banner: { js: REQUIRE_BANNER },
    }),
    // workerd: no Node built-ins (no nodejs_compat flag), the Web platform only.
    build({
      ...common,
      entryPoints: [
        ...["worker-server", "worker-client"].map((name) => ({ in: entry(name), out: name })),
        { in: example("worker"), out: "docs-worker" },
      ],
      platform: "neutral",
      format: "esm",
      target: "es2022",
      mainFields: ["module", "main"],
      conditions: ["@mcpkit/source", "workerd", "worker", "browser", "import"],
    }),
    build({
      ...common,
      entryPoints: [{ in: entry("client-browser"), out: "client-browser" }],
      outExtension: { ".js": ".js" },
      platform: "browser",
      format: "iife",
      target: "es2022",
      minify: true,
      conditions: ["@mcpkit/source"],
    }),
  ]);
}
