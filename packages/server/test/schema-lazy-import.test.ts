import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "tsup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The server is built as it ships (tsup, ESM, ajv left external) from the current sources into a private
// directory beside the package's node_modules, so the test neither reads a stale dist nor replaces the
// dist other programs use. The workspace packages are bundled in, so nothing else needs a build.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(packageDir, "node_modules", ".lazy-ajv-"));
  await build({
    config: false,
    entry: { index: join(packageDir, "src/index.ts") },
    outDir,
    format: ["esm"],
    target: "node20",
    dts: false,
    sourcemap: false,
    clean: false,
    silent: true,
    external: ["ajv"],
    noExternal: [/^(?!ajv(\/|$))/],
    esbuildOptions(options) {
      options.conditions = ["@mcpkit/source"];
    },
  });
}, 60_000);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

// Run in a fresh process: import the server, register and call a tool, report whether any ajv module was
// loaded (ajv is CommonJS, so every file of it lands in the CommonJS module cache, even when imported).
const script = `
import { createRequire } from "node:module";
const cache = createRequire(import.meta.url).cache;
const ajvLoaded = () => Object.keys(cache).some((path) => /[\\\\/]ajv[\\\\/]/.test(path));
const { createServer } = await import(process.env.SERVER_URL);
const server = createServer({ name: "x", version: "0" });
const inputSchema = JSON.parse(process.env.INPUT_SCHEMA);
server.registerTool("t", { inputSchema }, (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }));
const answered = new Promise((resolve) => {
  server.connect({
    traits: { perRequestStream: true },
    async start(sink) {
      queueMicrotask(() => sink.onMessage({
        jsonrpc: "2.0", id: 1, method: "tools/call",
        params: {
          name: "t", arguments: JSON.parse(process.env.ARGS),
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
          },
        },
      }));
    },
    async send(message) { if (message.id === 1) resolve(message); },
    async close() {},
  });
});
const response = await answered;
console.log(JSON.stringify({ ajvLoaded: ajvLoaded(), isError: response.result?.isError === true, error: response.error }));
await server.close();
`;

function runChild(inputSchema: unknown, args: unknown): Promise<{ ajvLoaded: boolean; isError: boolean }> {
  const env = {
    ...process.env,
    SERVER_URL: pathToFileURL(join(outDir, "index.js")).href,
    INPUT_SCHEMA: JSON.stringify(inputSchema),
    ARGS: JSON.stringify(args),
  };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--input-type=module", "-e", script],
      { cwd: outDir, env, timeout: 20_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split("\n").at(-1) ?? "null"));
      },
    );
  });
}

describe("importing the built server", () => {
  const subset = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };

  it("[schema:lazy-ajv] loads no ajv for tools whose schemas are in the subset, valid or not", async () => {
    expect(await runChild(subset, { text: "hi" })).toEqual({ ajvLoaded: false, isError: false });
    expect(await runChild(subset, { text: 1 })).toEqual({ ajvLoaded: false, isError: true });
  });

  it("[schema:lazy-ajv] loads ajv for a schema outside the subset (the probe sees it)", async () => {
    const outside = { ...subset, anyOf: [{ required: ["text"] }] };
    expect(await runChild(outside, { text: "hi" })).toEqual({ ajvLoaded: true, isError: false });
    expect(await runChild(outside, {})).toEqual({ ajvLoaded: true, isError: true });
  });
});
