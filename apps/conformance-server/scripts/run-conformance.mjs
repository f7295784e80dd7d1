#!/usr/bin/env node
// Starts the built conformance server (dist/main.js) on a free loopback port, runs the official suite
// against it for both revisions (scripts/conformance.mjs at the repo root), stops it, and exits non-zero
// when any scored scenario of either revision failed. Extra arguments go to the runner of each revision
// (e.g. `--expect-fail NAME`, `--verbose`). Build first: `pnpm --filter @mcpkit/conformance-server conformance`.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = path.resolve(appDir, "../..");
const entry = path.join(appDir, "dist", "main.js");
const runner = path.join(repoRoot, "scripts", "conformance.mjs");
const revisions = ["2026-07-28", "2025-11-25"];
const extra = process.argv.slice(2);

if (!existsSync(entry)) {
  console.error(
    `run-conformance: ${entry} is missing; run \`pnpm --filter @mcpkit/conformance-server build\` first`,
  );
  process.exit(2);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function waitForPort(port, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) {
        reject(new Error(`the server exited with code ${child.exitCode} before listening`));
        return;
      }
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve();
      });
      socket.once("error", () => {
        socket.destroy();
        if (Date.now() > deadline)
          reject(new Error(`nothing listened on port ${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", cwd: repoRoot });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const port = await freePort();
const started = Date.now();
const server = spawn(process.execPath, [entry], {
  env: { ...process.env, PORT: String(port) },
  stdio: ["ignore", "inherit", "inherit"],
});
let failed = false;
try {
  await waitForPort(port, server, 15_000);
  console.log(`conformance-server listening on 127.0.0.1:${port} after ${Date.now() - started} ms`);
  const url = `http://127.0.0.1:${port}/mcp`;
  for (const revision of revisions) {
    const code = await run(process.execPath, [
      runner,
      "server",
      "--url",
      url,
      "--requirements",
      revision,
      ...extra,
    ]);
    if (code !== 0) {
      failed = true;
      console.error(`run-conformance: ${revision} exited with ${code}`);
    }
  }
} catch (error) {
  failed = true;
  console.error(`run-conformance: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    const timer = setTimeout(() => server.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
process.exit(failed ? 1 : 0);
