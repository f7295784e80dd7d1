// What a release put on the registry, read back as an installer sees it: versions, dist-tags, dependency
// ranges and the files inside each tarball.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The public packages of a workspace: `{ name, dir, manifest }` for each non-private packages/* folder. */
export function publicPackages(root) {
  return readdirSync(path.join(root, "packages"))
    .map((d) => path.join(root, "packages", d))
    .flatMap((dir) => {
      try {
        const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
        return manifest.private ? [] : [{ name: manifest.name, dir, manifest }];
      } catch {
        return [];
      }
    });
}

/** The registry's document for `name` (all versions), or undefined when it has none. */
export async function packument(registry, name) {
  const response = await fetch(`${registry}${name.replace("/", "%2f")}`);
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`registry: GET ${name} answered ${response.status}`);
  return response.json();
}

/** The paths inside the tarball of `name@version` (without the leading `package/`). */
export async function tarballFiles(registry, name, version) {
  const doc = await packument(registry, name);
  const url = doc?.versions?.[version]?.dist?.tarball;
  if (!url) throw new Error(`registry: ${name}@${version} has no tarball`);
  const dir = mkdtempSync(path.join(tmpdir(), "mcpkit-tarball-"));
  try {
    const file = path.join(dir, "p.tgz");
    writeFileSync(file, Buffer.from(await (await fetch(url)).arrayBuffer()));
    return execFileSync("tar", ["tzf", file], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ""));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of one file inside the tarball of `name@version`. */
export async function tarballFile(registry, name, version, file) {
  const doc = await packument(registry, name);
  const url = doc.versions[version].dist.tarball;
  const dir = mkdtempSync(path.join(tmpdir(), "mcpkit-tarball-"));
  try {
    const tgz = path.join(dir, "p.tgz");
    writeFileSync(tgz, Buffer.from(await (await fetch(url)).arrayBuffer()));
    return execFileSync("tar", ["xzf", tgz, "-O", `package/${file}`], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Problems with one release of the public packages on the registry: each at `version`, `latest` pointing at
 * it, and its internal dependencies ranged `^version`.
 */
export async function releaseProblems(registry, packages, version) {
  const problems = [];
  for (const { name } of packages) {
    const doc = await packument(registry, name);
    const published = doc?.versions?.[version];
    if (!published) {
      problems.push(
        `${name}@${version} is not on the registry (has: ${Object.keys(doc?.versions ?? {}).join(", ")})`,
      );
      continue;
    }
    if (doc["dist-tags"]?.latest !== version)
      problems.push(`${name}: latest is ${doc["dist-tags"]?.latest}, not ${version}`);
    for (const [dep, range] of Object.entries({ ...published.dependencies, ...published.peerDependencies })) {
      if (!dep.startsWith("@mcpkit/") && dep !== "mcpkit") continue;
      if (range !== `^${version}`)
        problems.push(`${name}@${version} depends on ${dep}@${range}, not ^${version}`);
    }
  }
  return problems;
}

/**
 * Problems with what each published package holds: the manifest fields a user's tools read, and a
 * tarball with what a user needs and nothing of the sources.
 */
export async function contentProblems(registry, packages, version) {
  const problems = [];
  for (const { name } of packages) {
    const published = (await packument(registry, name))?.versions?.[version];
    if (!published) continue; // reported by releaseProblems
    for (const field of ["license", "repository", "engines", "exports", "types", "files"]) {
      if (published[field] === undefined)
        problems.push(`${name}@${version}: no "${field}" in the published manifest`);
    }
    if (published.sideEffects !== false) problems.push(`${name}@${version}: sideEffects is not false`);
    if (JSON.stringify(published.exports).includes("@mcpkit/source"))
      problems.push(`${name}@${version}: the published exports still name the @mcpkit/source condition`);
    const files = await tarballFiles(registry, name, version);
    const needed = [
      "package.json",
      "README.md",
      "LICENSE",
      "CHANGELOG.md",
      "dist/index.js",
      "dist/index.cjs",
    ];
    for (const must of [...needed, "dist/index.d.ts", "dist/index.d.cts"]) {
      if (!files.includes(must)) problems.push(`${name}@${version}: the tarball has no ${must}`);
    }
    const stray = files.filter((f) => f.startsWith("src/") || f.endsWith(".map") || f.includes(".test."));
    if (stray.length > 0)
      problems.push(`${name}@${version}: the tarball carries ${stray.slice(0, 3).join(", ")}`);
  }
  return problems;
}
