// @mcpkit/peers: where the real MCP peers from the npm registry live on disk, and how to start them.
// Plain ESM JavaScript (types in index.d.ts) so that both vitest and a bare `node` script can import it.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Absolute path of the installed package folder of one of this package's dependencies. */
export function peerDir(name) {
  const dir = path.join(packageRoot, "node_modules", ...name.split("/"));
  if (!existsSync(path.join(dir, "package.json"))) {
    throw new Error(`@mcpkit/peers: ${name} is not installed (looked in ${dir}); run \`pnpm install\``);
  }
  return realpathSync(dir);
}

/** The package.json of an installed peer. */
export function peerManifest(name) {
  return JSON.parse(readFileSync(path.join(peerDir(name), "package.json"), "utf8"));
}

/** Absolute path of a peer's bin script (the only one, or the one named `bin`). Run it with `node <path>`. */
export function peerBin(name, bin) {
  const manifest = peerManifest(name);
  let rel;
  if (typeof manifest.bin === "string") rel = manifest.bin;
  else if (manifest.bin && typeof manifest.bin === "object") {
    const bins = Object.entries(manifest.bin);
    const hit = bin ? bins.find(([key]) => key === bin) : bins.length === 1 ? bins[0] : undefined;
    rel = hit?.[1];
  }
  if (!rel) throw new Error(`@mcpkit/peers: ${name} has no bin${bin ? ` named ${bin}` : " (or several)"}`);
  const file = path.join(peerDir(name), rel);
  if (!existsSync(file)) throw new Error(`@mcpkit/peers: ${file} (bin of ${name}) does not exist`);
  return file;
}

/** `node <entry> stdio|streamableHttp|sse` (PORT env for the HTTP modes; default stdio). */
export function serverEverythingEntry() {
  return peerBin("@modelcontextprotocol/server-everything");
}

/** `node <entry> DIR...` — the allowed directories are its arguments. */
export function serverFilesystemEntry() {
  return peerBin("@modelcontextprotocol/server-filesystem");
}

/** `MEMORY_FILE_PATH=/abs/file.jsonl node <entry>`. */
export function serverMemoryEntry() {
  return peerBin("@modelcontextprotocol/server-memory");
}

/** The official conformance CLI script. On Node 20 run it with {@link conformanceNodeArgs}. */
export function conformanceEntry() {
  return peerBin("@modelcontextprotocol/conformance", "conformance");
}

/** Absolute path of the preload module that lets the conformance CLI run on Node 20 (adds `fs.globSync`). */
export function node20Preload() {
  return fileURLToPath(new URL("./node20/preload.mjs", import.meta.url));
}

/** Node arguments to run the conformance CLI: `spawn(process.execPath, [...conformanceNodeArgs(), "list"])`. */
export function conformanceNodeArgs() {
  return ["--import", node20Preload(), conformanceEntry()];
}

/**
 * Parses `conformance list --requirements REV --<role>` into the scored names and the not-scored names
 * (those listed under "Run and reported, but never scored", tagged with the role).
 */
export function parseConformanceList(text, role) {
  const scored = [];
  const notScored = [];
  let section = "";
  for (const line of text.split("\n")) {
    if (/^Server scenarios/.test(line)) section = "server";
    else if (/^Client scenarios/.test(line)) section = "client";
    else if (/^Authorization/i.test(line)) section = "authorization";
    else if (/^Run and reported, but never scored/.test(line)) section = "not-scored";
    const scoredHit = /^ {2}- (\S+)\s*$/.exec(line);
    if (scoredHit && section === role) scored.push(scoredHit[1]);
    const otherHit = /^ {4}- (\S+) \[(\w+)\]/.exec(line);
    if (otherHit && section === "not-scored" && otherHit[2] === role) notScored.push(otherHit[1]);
  }
  return { scored, notScored };
}

/**
 * The inspector CLI, as `node <entry> --cli <command…|URL> --method tools/list` (HOME pointed at a scratch
 * folder). Every `@modelcontextprotocol/inspector` release declares node >=22, so the entry is
 * scripts/inspector-cli.mjs, which runs the CLI of `@modelcontextprotocol/inspector-cli` (a pinned
 * devDependency whose whole tree runs on Node 20) with the same arguments.
 */
export function inspectorCliEntry() {
  peerDir("@modelcontextprotocol/inspector-cli");
  return path.join(packageRoot, "scripts", "inspector-cli.mjs");
}

/** True when {@link inspectorCliEntry} would succeed. */
export function inspectorInstalled() {
  try {
    inspectorCliEntry();
    return true;
  } catch {
    return false;
  }
}

/**
 * For a test that needs the inspector CLI: true when it is installed; when it is not, prints why the test
 * skips and answers false, except under `CI=true`, where a missing inspector throws (a CI run never skips
 * it silently).
 */
export function inspectorOrSkip() {
  if (inspectorInstalled()) return true;
  const why =
    "the inspector CLI (@modelcontextprotocol/inspector-cli, a devDependency of @mcpkit/peers) is not installed";
  if (process.env.CI === "true") throw new Error(`${why}: required under CI=true`);
  console.warn(`Skipping the inspector tests: ${why} (run pnpm install)`);
  return false;
}

/** A TCP port that was free a moment ago (there is a small race; callers retry on EADDRINUSE). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function canConnect(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const live = new Set();
let exitHookInstalled = false;
function trackForExit(child) {
  live.add(child);
  child.once("exit", () => live.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Last resort if the test process ends without close(): do not leave detached servers behind.
    process.once("exit", () => {
      for (const c of live) killGroup(c, "SIGKILL");
    });
  }
}

function killGroup(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {}
  }
}

/**
 * Spawns `node <entry> <args>` in its own process group and waits until `port` accepts TCP connections on
 * 127.0.0.1. Returns `{ child, output(), close() }`; close() kills the whole group and waits for the exit.
 */
export async function spawnHttpPeer({
  command = process.execPath,
  args,
  port,
  env,
  cwd,
  timeoutMs = 15_000,
}) {
  const child = spawn(command, args, {
    env: { ...process.env, ...env, PORT: String(port) },
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  trackForExit(child);
  let out = "";
  const keep = (chunk) => {
    out += chunk.toString();
    if (out.length > 64_000) out = out.slice(-32_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  let spawnError;
  child.once("error", (err) => {
    spawnError = err;
  });

  const close = async () => {
    killGroup(child, "SIGTERM");
    const timer = setTimeout(() => killGroup(child, "SIGKILL"), 3_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (spawnError || child.exitCode !== null || child.signalCode !== null) {
      const how = spawnError ? String(spawnError) : `exited with ${child.exitCode ?? child.signalCode}`;
      const error = new Error(
        `${path.basename(args[0] ?? command)} ${how} before listening on ${port}:\n${out}`,
      );
      error.code = /EADDRINUSE|already in use/.test(out) ? "EADDRINUSE" : "PEER_EXITED";
      throw error;
    }
    if (await canConnect(port)) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(
        `${args.join(" ")} did not listen on 127.0.0.1:${port} within ${timeoutMs} ms:\n${out}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, output: () => out, close };
}

/**
 * Starts server-everything over HTTP on a free port. It listens on all interfaces; the returned url uses
 * 127.0.0.1. Streamable HTTP is served at `/mcp` (POST, GET, DELETE); legacy SSE at `GET /sse` with
 * messages POSTed to `/message?sessionId=…` (the endpoint event says so).
 */
export async function startServerEverythingHttp({ mode = "streamableHttp", timeoutMs, env } = {}) {
  if (mode !== "streamableHttp" && mode !== "sse") throw new Error(`unknown server-everything mode ${mode}`);
  const entry = serverEverythingEntry();
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      const peer = await spawnHttpPeer({ args: [entry, mode], port, env, timeoutMs });
      const url = `http://127.0.0.1:${port}${mode === "sse" ? "/sse" : "/mcp"}`;
      return { url, port, pid: peer.child.pid, output: peer.output, close: peer.close };
    } catch (error) {
      if (error?.code !== "EADDRINUSE" || attempt >= 3) throw error;
    }
  }
}
