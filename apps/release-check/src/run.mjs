#!/usr/bin/env node
// `pnpm release:check`: proves a release from a copy of the workspace, against a Verdaccio on loopback.
//  1. `pnpm release` (changeset version + build + changeset publish) publishes every public package;
//     each is read back (one version for all, ranges, tarball contents, CHANGELOG).
//  2. A fresh npm project runs the README's `npm i mcpkit zod` and its quick starts.
//  3. A custom host installs only `@mcpkit/client @mcpkit/transport-http` and calls the quick start's tool.
//  4. The READMEs' TypeScript compiles against the installed packages on TypeScript 5.4, 5.9, 6 and 7
//     (Node 20 project; browser project), strict and without skipLibCheck.
//  5. A changeset for @mcpkit/jsonrpc and a second `pnpm release` bump it and every package depending on it.
// Prints one line per check and closes with "release-check: N passed, N failed"; exits 1 on a failure.
//   node apps/release-check/src/run.mjs [--keep] [--skip-types]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./command.mjs";
import { contentProblems, packument, publicPackages, releaseProblems, tarballFile } from "./published.mjs";
import { typeMatrix } from "./type-matrix.mjs";
import { customHost, quickStarts } from "./user-projects.mjs";
import { startVerdaccio } from "./verdaccio.mjs";
import { copyWorkspace } from "./workspace-copy.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const keep = process.argv.includes("--keep");
const work = mkdtempSync(path.join(tmpdir(), "mcpkit-release-check-"));
const started = Date.now();
// The whole check is bounded: past this the run fails instead of hanging CI.
const budgetMs = Number(process.env.MCPKIT_RELEASE_CHECK_BUDGET_MS ?? 30 * 60_000);
const watchdog = setTimeout(() => {
  console.error(`release-check: over its ${budgetMs / 60_000} min budget, stopping`);
  process.exit(1);
}, budgetMs);
watchdog.unref();

let passed = 0;
let failed = 0;
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
async function check(name, fn) {
  const t = Date.now();
  try {
    const lines = (await fn()) ?? [];
    passed++;
    console.log(`PASS ${name} (${((Date.now() - t) / 1000).toFixed(0)} s)`);
    for (const line of lines) console.log(`     ${line}`);
    return true;
  } catch (error) {
    failed++;
    console.log(
      `FAIL ${name} (${((Date.now() - t) / 1000).toFixed(0)} s)\n${error instanceof Error ? error.message : error}`,
    );
    return false;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Every public package's version in the copy (after `changeset version`). */
const versions = (copy) => new Map(publicPackages(copy).map((p) => [p.name, p.manifest.version]));

const registry = await startVerdaccio({ dir: path.join(work, "verdaccio"), port: await freePort() });
const copy = path.join(work, "workspace");
const release = () =>
  run("pnpm", ["release"], {
    cwd: copy,
    // No install before the run (pnpm 12 verifies deps first): the node_modules are the original's, linked.
    env: {
      npm_config_registry: registry.url,
      pnpm_config_registry: registry.url,
      pnpm_config_verify_deps_before_run: "false",
      TURBO_TELEMETRY_DISABLED: "1",
      CI: "true",
    },
    timeout: 900_000,
  });
try {
  console.log(`release-check: Verdaccio ${registry.url} (storage ${path.join(work, "verdaccio")})`);
  copyWorkspace(root, copy);
  writeFileSync(
    path.join(copy, ".npmrc"),
    `registry=${registry.url}\n//${new URL(registry.url).host}/:_authToken=${registry.token}\n`,
  );
  const packages = publicPackages(copy);
  let first;

  const released = await check("pnpm release publishes every public package at one version", async () => {
    const fixed = JSON.parse(readFileSync(path.join(copy, ".changeset", "config.json"), "utf8")).fixed;
    const group = new Set(fixed.flat());
    const outside = packages.map((p) => p.name).filter((n) => !group.has(n));
    if (fixed.length !== 1 || outside.length > 0)
      throw new Error(
        `.changeset/config.json: one fixed group must hold every public package (missing: ${outside.join(", ")})`,
      );
    await release();
    const after = versions(copy);
    const distinct = new Set(after.values());
    if (distinct.size !== 1)
      throw new Error(
        `versions after changeset version differ: ${JSON.stringify(Object.fromEntries(after))}`,
      );
    first = [...distinct][0];
    const problems = await releaseProblems(registry.url, packages, first);
    if (problems.length > 0) throw new Error(problems.join("\n"));
    return [`${packages.length} packages at ${first}: ${packages.map((p) => p.name).join(", ")}`];
  });

  if (released) {
    await check(
      "each published package: manifest fields, README, LICENSE, CHANGELOG, dist; no sources",
      async () => {
        const problems = await contentProblems(registry.url, packages, first);
        const changelog = await tarballFile(registry.url, "mcpkit", first, "CHANGELOG.md");
        if (!changelog.includes(`## ${first}`))
          problems.push(`mcpkit@${first}'s CHANGELOG.md has no "## ${first}" section`);
        if (problems.length > 0) throw new Error(problems.join("\n"));
      },
    );
    const user = path.join(work, "user-project");
    const quick = await check("a fresh npm project: `npm i mcpkit zod` and the README's quick starts", () =>
      quickStarts(copy, user, registry.url),
    );
    if (quick) {
      await check("a custom host from `npm i @mcpkit/client @mcpkit/transport-http`", () =>
        customHost(user, path.join(work, "custom-host"), registry.url),
      );
    }
    if (!process.argv.includes("--skip-types")) {
      await typeMatrix({ root: copy, dir: path.join(work, "types"), registry: registry.url, check });
    }
    await check(
      "a changeset for @mcpkit/jsonrpc and a second pnpm release bump it and its dependents",
      async () => {
        writeFileSync(
          path.join(copy, ".changeset", "release-check-jsonrpc.md"),
          '---\n"@mcpkit/jsonrpc": patch\n---\n\nrelease-check: a patch to the package every other depends on.\n',
        );
        await release();
        const after = versions(copy);
        const second = after.get("@mcpkit/jsonrpc");
        const [major, minor, patch] = first.split(".").map(Number);
        if (second !== `${major}.${minor}.${patch + 1}`)
          throw new Error(`@mcpkit/jsonrpc went from ${first} to ${second}`);
        const dependents = packages.filter((p) =>
          JSON.stringify(p.manifest.dependencies ?? {}).includes('"@mcpkit/jsonrpc"'),
        );
        const problems = await releaseProblems(registry.url, packages, second);
        for (const { name } of dependents) {
          const doc = await packument(registry.url, name);
          const range = doc.versions[second]?.dependencies?.["@mcpkit/jsonrpc"];
          if (range !== `^${second}`) problems.push(`${name}@${second} depends on @mcpkit/jsonrpc@${range}`);
        }
        const changelog = await tarballFile(registry.url, "@mcpkit/jsonrpc", second, "CHANGELOG.md");
        if (!changelog.includes("release-check: a patch"))
          problems.push(`@mcpkit/jsonrpc@${second}'s CHANGELOG.md lacks the changeset`);
        const clientLog = await tarballFile(registry.url, "@mcpkit/client", second, "CHANGELOG.md");
        if (!clientLog.includes(`@mcpkit/jsonrpc@${second}`))
          problems.push(`@mcpkit/client@${second}'s CHANGELOG.md does not name @mcpkit/jsonrpc@${second}`);
        if (problems.length > 0) throw new Error(problems.join("\n"));
        return [
          `@mcpkit/jsonrpc ${first} -> ${second}; dependents at ${second} with ^${second}: ${dependents.map((p) => p.name).join(", ")}`,
        ];
      },
    );
  }
} finally {
  await registry.stop();
  if (keep) console.log(`release-check: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
console.log(`release-check (${elapsed()}): ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
