#!/usr/bin/env node
// The conformance server behind the gateway: for each direction, the built server (dist/main.js) serves
// one era only (MCPKIT_ERAS), `mcpkit gateway` (run from the sources) serves both in front of it, and the
// official suite runs against the gateway at the other era:
//   legacy-only upstream  → the 2026-07-28 scenarios;
//   modern-only upstream  → the 2025-11-25 scenarios.
// `node scripts/run-gateway-conformance.mjs [legacy|modern] [runner args…]`; exits non-zero on any
// failed scored scenario. Build the server first: `pnpm --filter @mcpkit/conformance-server build`.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, run, stopAll, waitForPort } from "./processes.mjs";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = path.resolve(appDir, "../..");
const entry = path.join(appDir, "dist", "main.js");
const runner = path.join(repoRoot, "scripts", "conformance.mjs");
const gatewayDir = path.join(repoRoot, "packages", "gateway");
const cliEntry = path.join(repoRoot, "packages", "mcpkit", "src", "bin.ts");
const DIRECTIONS = { legacy: "2026-07-28", modern: "2025-11-25" };
const only = process.argv[2] in DIRECTIONS ? [process.argv[2]] : Object.keys(DIRECTIONS);
const extra = process.argv.slice(process.argv[2] in DIRECTIONS ? 3 : 2);

if (!existsSync(entry)) {
  console.error(`run-gateway-conformance: ${entry} is missing; build @mcpkit/conformance-server first`);
  process.exit(2);
}

let failed = false;
const scratch = mkdtempSync(path.join(tmpdir(), "gateway-conformance-"));
try {
  for (const era of only) {
    const children = [];
    try {
      const upstreamPort = await freePort();
      const upstream = spawn(process.execPath, [entry], {
        env: { ...process.env, PORT: String(upstreamPort), REDIS_URL: "", MCPKIT_ERAS: era },
        stdio: ["ignore", "inherit", "inherit"],
      });
      children.push(upstream);
      await waitForPort(upstreamPort, upstream, 15_000);
      const config = path.join(scratch, `gateway-${era}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          mcpServers: { conformance: { url: `http://127.0.0.1:${upstreamPort}/mcp` } },
          gateway: { upstreams: { conformance: { era } }, audit: { target: "off" } },
        }),
      );
      const gatewayPort = await freePort();
      const gateway = spawn(
        process.execPath,
        [
          "--conditions=@mcpkit/source",
          "--import",
          "tsx",
          cliEntry,
          "gateway",
          "--config",
          config,
          "--port",
          String(gatewayPort),
        ],
        { cwd: gatewayDir, stdio: ["ignore", "inherit", "inherit"] },
      );
      children.push(gateway);
      await waitForPort(gatewayPort, gateway, 30_000);
      console.log(
        `gateway on ${gatewayPort} in front of the ${era}-only conformance server on ${upstreamPort}`,
      );
      const code = await run(
        process.execPath,
        [
          runner,
          "server",
          "--url",
          `http://127.0.0.1:${gatewayPort}/mcp`,
          "--requirements",
          DIRECTIONS[era],
          ...extra,
        ],
        repoRoot,
      );
      if (code !== 0) {
        failed = true;
        console.error(
          `run-gateway-conformance: ${DIRECTIONS[era]} through the gateway (${era}-only upstream) exited with ${code}`,
        );
      }
    } finally {
      await stopAll(children);
    }
  }
} catch (error) {
  failed = true;
  console.error(`run-gateway-conformance: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
