#!/usr/bin/env node
// Starts the built conformance server (dist/main.js) on a free loopback port, runs the official suite
// against it for both revisions (scripts/conformance.mjs at the repo root), then the Skills extension's
// scenarios (not on a revision's timeline: run by name, at the 2026-07-28 wire the extension is defined
// for), stops it, and exits non-zero when any scored scenario or any of those failed. Extra arguments go to the runner of each revision
// (e.g. `--expect-fail NAME`, `--verbose`). Build first: `pnpm --filter @mcpkit/conformance-server conformance`.
//
// `--cluster`: three instances sharing a Redis (REDIS_URL, default redis://127.0.0.1:6379; a random
// MCPKIT_STATE_KEYS ring and a key prefix of this run's own), behind the no-stickiness round-robin proxy of
// apps/cluster-demo (dist/proxy.js, built here when missing); the suite is pointed at the proxy.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, waitForPort } from "./processes.mjs";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = path.resolve(appDir, "../..");
const entry = path.join(appDir, "dist", "main.js");
const runner = path.join(repoRoot, "scripts", "conformance.mjs");
const revisions = ["2026-07-28", "2025-11-25"];
// Each must pass with at least one SUCCESS check (the strict tier rule of scripts/conformance.mjs).
const EXTENSIONS = ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"];
const cluster = process.argv.includes("--cluster");
const extra = process.argv.slice(2).filter((arg) => arg !== "--cluster");
const INSTANCES = 3;

if (!existsSync(entry)) {
  console.error(
    `run-conformance: ${entry} is missing; run \`pnpm --filter @mcpkit/conformance-server build\` first`,
  );
  process.exit(2);
}

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", cwd: repoRoot });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The proxy of apps/cluster-demo, built when missing; resolves its port once it listens. */
async function startProxy(upstreams) {
  const demoDir = path.resolve(appDir, "../cluster-demo");
  const proxyEntry = path.join(demoDir, "dist", "proxy.js");
  if (!existsSync(proxyEntry)) {
    execFileSync(path.resolve(repoRoot, "node_modules/.bin/tsup"), ["--silent"], {
      cwd: demoDir,
      stdio: "inherit",
    });
  }
  const child = spawn(process.execPath, [proxyEntry, ...upstreams], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the proxy did not start within 15 s")), 15_000);
    child.stdout.once("data", (chunk) => {
      clearTimeout(timer);
      resolve(String(chunk));
    });
    child.once("exit", (code) => reject(new Error(`the proxy exited with ${code}`)));
  });
  return { child, port: JSON.parse(line).port };
}

const started = Date.now();
const children = [];
let failed = false;
try {
  let url;
  if (!cluster) {
    const port = await freePort();
    const server = spawn(process.execPath, [entry], {
      // One process with the in-memory stores, even where REDIS_URL is set for everything else.
      env: { ...process.env, PORT: String(port), REDIS_URL: "" },
      stdio: ["ignore", "inherit", "inherit"],
    });
    children.push(server);
    await waitForPort(port, server, 15_000);
    console.log(`conformance-server listening on 127.0.0.1:${port} after ${Date.now() - started} ms`);
    url = `http://127.0.0.1:${port}/mcp`;
  } else {
    const env = {
      ...process.env,
      REDIS_URL: process.env.REDIS_URL || "redis://127.0.0.1:6379",
      MCPKIT_STATE_KEYS: `${randomBytes(32).toString("base64")},${randomBytes(32).toString("base64")}`,
      MCPKIT_REDIS_PREFIX: `mcpkit-conformance:${randomBytes(4).toString("hex")}:`,
    };
    const ports = [];
    for (let i = 0; i < INSTANCES; i++) ports.push(await freePort());
    for (const port of ports) {
      children.push(
        spawn(process.execPath, [entry], {
          env: { ...env, PORT: String(port) },
          stdio: ["ignore", "inherit", "inherit"],
        }),
      );
    }
    await Promise.all(ports.map((port, i) => waitForPort(port, children[i], 15_000)));
    const proxy = await startProxy(ports.map((port) => `http://127.0.0.1:${port}`));
    children.push(proxy.child);
    console.log(
      `conformance cluster: ${INSTANCES} instances (ports ${ports.join(", ")}) sharing ${env.REDIS_URL} ` +
        `(prefix ${env.MCPKIT_REDIS_PREFIX}) behind the round-robin proxy on ${proxy.port}, after ${Date.now() - started} ms`,
    );
    url = `http://127.0.0.1:${proxy.port}/mcp`;
  }
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
  for (const scenario of EXTENSIONS) {
    const code = await run(process.execPath, [
      runner,
      "server",
      "--url",
      url,
      "--scenario",
      scenario,
      ...extra,
    ]);
    if (code !== 0) {
      failed = true;
      console.error(`run-conformance: ${scenario} exited with ${code}`);
    }
  }
} catch (error) {
  failed = true;
  console.error(`run-conformance: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }),
  );
}
process.exit(failed ? 1 : 0);
