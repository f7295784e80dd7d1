import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";

// The runtime-neutral entry points (every export of the packages that run on Node, Deno, Bun, browsers and
// workers, except their `./node` subpaths) are built as a bundler builds them for a browser or a worker,
// following every import, static and dynamic, into third-party packages too (ajv, @cfworker/json-schema,
// loaded on first need): no Node built-in may be reachable.
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
// Node-only by design: the stdio transport, the batteries (CLI, spawn), the Redis stores, the gateway (it
// spawns stdio upstreams and keeps its pins and audit in files), the inspector (a local web server that
// spawns servers); test helpers.
const NODE_ONLY = new Set([
  "@mcpkit/transport-stdio",
  "mcpkit",
  "@mcpkit/redis",
  "@mcpkit/gateway",
  "@mcpkit/inspector",
  "@mcpkit/peers",
  "@mcpkit/test-kit",
]);
const BUILTINS = new Set(builtinModules);

function neutralEntries(): Array<{ name: string; subpath: string; file: string }> {
  const entries = [];
  for (const dir of readdirSync(path.join(repo, "packages"))) {
    const manifest = JSON.parse(readFileSync(path.join(repo, "packages", dir, "package.json"), "utf8"));
    if (NODE_ONLY.has(manifest.name)) continue;
    for (const [subpath, target] of Object.entries<Record<string, unknown> | string>(
      manifest.exports ?? {},
    )) {
      if (subpath === "./package.json" || subpath.endsWith(".json") || subpath === "./node") continue;
      const source = typeof target === "object" ? target["@mcpkit/source"] : undefined;
      if (typeof source !== "string") continue;
      entries.push({ name: manifest.name, subpath, file: path.join(repo, "packages", dir, source) });
    }
  }
  return entries;
}

/** Records every import of a Node built-in, with the file that imports it, and keeps the build going. */
function builtinRecorder(found: string[]): Plugin {
  return {
    name: "builtin-recorder",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.replace(/^node:/, "").split("/")[0] ?? "";
        if (args.path.startsWith("node:") || (BUILTINS.has(bare) && !args.path.startsWith("."))) {
          found.push(`${args.path} ← ${path.relative(repo, args.importer)}`);
          return { path: args.path, external: true };
        }
        return undefined;
      });
    },
  };
}

describe("runtime-neutral entry points", () => {
  const entries = neutralEntries();

  it("[runtimes:entries] finds the neutral packages' entries", () => {
    const names = entries.map((e) => `${e.name}${e.subpath === "." ? "" : e.subpath.slice(1)}`);
    expect(names).toEqual(
      expect.arrayContaining([
        "@mcpkit/jsonrpc",
        "@mcpkit/protocol",
        "@mcpkit/client",
        "@mcpkit/server",
        "@mcpkit/transport-http",
      ]),
    );
  });

  it("[runtimes:no-node-import] the walk does see a Node built-in where there is one (the ./node adapter)", async () => {
    // The ./node entry re-exports the adapter and listen() from src/node/.
    expect(await builtinsReachedFrom(path.join(repo, "packages/transport-http/src/node.ts"))).toContain(
      "node:http ← packages/transport-http/src/node/listen.ts",
    );
  });

  for (const entry of entries) {
    const label = `${entry.name}${entry.subpath === "." ? "" : entry.subpath.slice(1)}`;
    it(`[runtimes:no-node-import] ${label} reaches no Node built-in, dynamic imports included`, async () => {
      expect(await builtinsReachedFrom(entry.file)).toEqual([]);
    });
  }
});

async function builtinsReachedFrom(file: string): Promise<string[]> {
  const found: string[] = [];
  await build({
    entryPoints: [file],
    bundle: true,
    write: false,
    platform: "neutral",
    format: "esm",
    mainFields: ["module", "main"],
    conditions: ["@mcpkit/source", "browser", "import"],
    // Peer SDKs of the bridges are the app's own; their graph is not ours.
    external: ["openai", "@anthropic-ai/sdk", "ai", "@opentelemetry/api", "zod"],
    logLevel: "silent",
    plugins: [builtinRecorder(found)],
  });
  return found;
}
