#!/usr/bin/env node
// Packages as users get them: packs every published package (workspace: ranges rewritten by pnpm),
// installs the tarballs into a fresh project outside the workspace with plain npm (no links), and
// runs a connect + serve round trip from both ESM and CommonJS, over stdio and over HTTP.
// Run after `pnpm build`.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const work = mkdtempSync(join(tmpdir(), "mcpkit-smoke-"));
const packs = join(work, "packs");
const project = join(work, "project");
mkdirSync(packs);
mkdirSync(project);

const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });

try {
  const published = readdirSync(join(root, "packages"))
    .map((dir) => join(root, "packages", dir))
    .filter((dir) => {
      try {
        return !JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private;
      } catch {
        return false;
      }
    });
  for (const dir of published) run("pnpm", ["pack", "--pack-destination", packs], dir);
  const tarballs = readdirSync(packs).map((f) => join(packs, f));
  console.log(`packed ${tarballs.length} packages`);

  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "smoke", private: true, version: "0.0.0" }),
  );
  run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--omit=dev", "--engine-strict=false", ...tarballs],
    project,
  );
  const linked = readdirSync(join(project, "node_modules", "@mcpkit"));
  console.log(`installed: mcpkit, @mcpkit/{${linked.join(",")}}`);

  writeFileSync(
    join(project, "server.mjs"),
    `import { createServer, serve } from "mcpkit";
const server = createServer({ name: "smoke", version: "1.0.0" });
server.registerTool("add", { inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }, ({ a, b }) => String(a + b));
await serve(server);
`,
  );
  const roundTrip = (load) => `${load}
const server = createServer({ name: "smoke-http", version: "1.0.0" });
server.registerTool("add", { inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } }, ({ a, b }) => String(a + b));
async function main() {
  const running = await serve(server, { transport: "http", port: 0, block: false, onListening() {} });
  try {
    const http = await connect(running.url);
    const viaHttp = (await http.callTool("add", { a: 2, b: 3 })).content;
    await http.close();
    const stdio = await connect([process.execPath, require("node:path").join(__dirname, "server.mjs")]);
    const viaStdio = (await stdio.callTool("add", { a: 20, b: 22 })).content;
    await stdio.close();
    if (viaHttp !== "5" || viaStdio !== "42") throw new Error("wrong answers: " + viaHttp + ", " + viaStdio);
    console.log(FLAVOUR + " ok: http 2+3=" + viaHttp + " (" + http.era + "), stdio 20+22=" + viaStdio + " (" + stdio.era + ")");
  } finally {
    await running.close();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
`;
  writeFileSync(
    join(project, "esm.mjs"),
    roundTrip(
      `import { connect, createServer, serve } from "mcpkit";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
const require = createRequire(import.meta.url);
const __dirname = dirname(fileURLToPath(import.meta.url));
const FLAVOUR = "ESM";`,
    ),
  );
  writeFileSync(
    join(project, "cjs.cjs"),
    roundTrip(`const { connect, createServer, serve } = require("mcpkit");
const FLAVOUR = "CommonJS";`),
  );
  process.stdout.write(run(process.execPath, ["esm.mjs"], project));
  process.stdout.write(run(process.execPath, ["cjs.cjs"], project));
  process.stdout.write(
    run(
      process.execPath,
      [join(project, "node_modules", ".bin", "mcpkit"), "tools", "--", process.execPath, "server.mjs"],
      project,
    ),
  );
  console.log("smoke: packed packages work from a plain npm project (ESM, CommonJS, CLI)");
} finally {
  rmSync(work, { recursive: true, force: true });
}
