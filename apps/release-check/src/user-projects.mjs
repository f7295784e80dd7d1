// A new user's first hour, against packages installed by name from the registry: the README's install
// line and quick starts in a plain npm project, then a custom host that installs only the client and the
// HTTP transport.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { run } from "./command.mjs";
import { markedBlocks } from "./readme-blocks.mjs";

/** A fresh npm project in `dir` (`"type": "module"`) whose registry is `registry`. */
export function npmProject(dir, registry, extra = {}) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name: path.basename(dir), version: "1.0.0", private: true, type: "module", ...extra }, null, 2)}\n`,
  );
  writeFileSync(
    path.join(dir, ".npmrc"),
    `registry=${registry}\naudit=false\nfund=false\nupdate-notifier=false\n`,
  );
  return dir;
}

/** Runs an npm command line as a user types it (`npm i mcpkit zod`) in `dir`. */
export function npm(dir, line, registry) {
  const [cmd, ...args] = line.split(" ");
  if (cmd !== "npm") throw new Error(`not an npm command: ${line}`);
  return run("npm", args, { cwd: dir, env: { npm_config_registry: registry }, timeout: 300_000 });
}

/**
 * The root README's quick starts in `dir`: its install line run verbatim, the marked files written out,
 * `node client.js` (the client spawning the weather server over stdio) and `node --test weather.test.js`.
 * Returns the lines to report.
 */
export async function quickStarts(root, dir, registry) {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const install = "npm i mcpkit zod";
  if (!readme.includes(`\`${install}\``)) throw new Error(`README.md no longer says \`${install}\``);
  npmProject(dir, registry);
  await npm(dir, install, registry);
  const blocks = markedBlocks(path.join(root, "README.md"));
  for (const name of ["weather-server.js", "client.js", "weather.test.js"]) {
    if (!blocks.has(name)) throw new Error(`README.md has no block marked docs-test: ${name}`);
    writeFileSync(path.join(dir, name), blocks.get(name));
  }
  const out = await run(process.execPath, ["client.js"], { cwd: dir, timeout: 60_000 });
  for (const expected of ["forecast Tomorrow's weather", "sunny", "Lisbon"]) {
    if (!out.includes(expected)) throw new Error(`node client.js printed no "${expected}":\n${out}`);
  }
  await run(process.execPath, ["--test", "weather.test.js"], { cwd: dir, timeout: 60_000 });
  const installed = readdirSync(path.join(dir, "node_modules", "@mcpkit"));
  return [
    `${install}: mcpkit + @mcpkit/{${installed.join(",")}}`,
    "node client.js: forecast listed and called",
    "node --test weather.test.js: passed",
  ];
}

/** Starts the quick start's weather tool over Streamable HTTP from the `mcpkit` project in `dir`; `{ url, stop }`. */
async function weatherOverHttp(dir) {
  writeFileSync(
    path.join(dir, "weather-http.js"),
    `import { createServer, serve } from "mcpkit";
import { z } from "zod";
const server = createServer({ name: "weather", version: "1.0.0" });
server.registerTool("forecast", { description: "Tomorrow's weather", inputSchema: z.object({ city: z.string() }) },
  async ({ city }) => ({ city, condition: "sunny", highC: 24 }));
const running = await serve(server, { transport: "http", port: 0, block: false, onListening() {} });
console.log(running.url);
process.stdin.on("end", () => running.close().then(() => process.exit(0)));
process.stdin.resume();
`,
  );
  const child = spawn(process.execPath, ["weather-http.js"], {
    cwd: dir,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("weather-http.js printed no URL within 30 s")), 30_000);
    let text = "";
    child.stdout.on("data", (d) => {
      text += d;
      const match = /https?:\/\/\S+/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.on("exit", (code) =>
      reject(new Error(`weather-http.js exited with ${code} before printing its URL`)),
    );
  });
  const stop = () =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        resolve();
      }, 5_000);
      child.on("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.stdin.end();
    });
  return { url, stop };
}

/** `names` and the @mcpkit packages they depend on, transitively, as installed in `dir`; sorted. */
function ourClosure(dir, names) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const manifest = JSON.parse(readFileSync(path.join(dir, "node_modules", name, "package.json"), "utf8"));
    for (const dep of Object.keys(manifest.dependencies ?? {})) if (dep.startsWith("@mcpkit/")) visit(dep);
  };
  for (const name of names) visit(name);
  return [...seen].sort();
}

/**
 * A custom host from single packages (`npm i @mcpkit/client @mcpkit/transport-http`): the client README's
 * host over HTTP, against the weather server of the quick-start project in `serverDir`.
 */
export async function customHost(serverDir, dir, registry) {
  npmProject(dir, registry);
  await npm(dir, "npm i @mcpkit/client @mcpkit/transport-http", registry);
  writeFileSync(
    path.join(dir, "host.js"),
    `import { createClient } from "@mcpkit/client";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";

const client = createClient({ name: "my-host", version: "1.0.0" });
await client.connect(() => createStreamableHttpClientTransport({ url: process.argv[2] }));
const tools = await client.listTools();
const result = await client.callTool("forecast", { city: "Lisbon" });
console.log(client.era, tools.map((t) => t.name).join(","), JSON.stringify(result.structured));
await client.close();
`,
  );
  const server = await weatherOverHttp(serverDir);
  try {
    const out = await run(process.execPath, ["host.js", server.url], { cwd: dir, timeout: 60_000 });
    if (!out.includes("forecast") || !out.includes('"condition":"sunny"'))
      throw new Error(`host.js did not list and call forecast:\n${out}`);
    const installed = readdirSync(path.join(dir, "node_modules", "@mcpkit")).sort();
    const expected = ourClosure(dir, ["@mcpkit/client", "@mcpkit/transport-http"]).map((n) => n.slice(8));
    if (installed.join() !== expected.join() || installed.includes("server"))
      throw new Error(
        `npm i @mcpkit/client @mcpkit/transport-http installed @mcpkit/{${installed}}, not {${expected}}`,
      );
    return [`custom host (@mcpkit/{${installed.join(",")}} only): ${out.trim()}`];
  } finally {
    await server.stop();
  }
}
