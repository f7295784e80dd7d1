// Scenario 9: the browser client's weight. Each implementation's client plus its Streamable HTTP transport,
// used as a web page uses them (connect, list tools, call one), bundled the same way with esbuild for the
// browser (ESM, minified, tree-shaken, code splitting so that lazily imported modules land in their own
// chunks), then gzipped (level 9). "Initial" is what a page loads first: the entry chunk and every chunk it
// imports statically (esbuild puts code that a lazy chunk shares with the entry in such a chunk); "all" adds
// every lazy chunk (mcpkit's JSON Schema engines, imported on the first schema that needs one).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { appDir } from "./procs.mjs";

/** The target for mcpkit's browser client, minified + gzipped, initial chunk. */
export const BUNDLE_TARGET_BYTES = 30 * 1024;

const USE = `export async function run(url) {
  const client = CLIENT;
  await client.connect(TRANSPORT);
  await client.listTools();
  return client.callTool(CALL);
}`;

/** The page code per implementation (its public API only). */
const ENTRIES = {
  "sdk-v1": `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
${USE.replace("CLIENT", 'new Client({ name: "page", version: "1.0.0" })')
  .replace("TRANSPORT", "new StreamableHTTPClientTransport(new URL(url))")
  .replace("CALL", '{ name: "echo", arguments: {} }')}`,
  "sdk-v2": `import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
${USE.replace("CLIENT", 'new Client({ name: "page", version: "1.0.0" })')
  .replace("TRANSPORT", "new StreamableHTTPClientTransport(new URL(url))")
  .replace("CALL", '{ name: "echo", arguments: {} }')}`,
  mcpkit: `import { createClient } from "@mcpkit/client";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
${USE.replace("CLIENT", 'createClient({ name: "page", version: "1.0.0" })')
  .replace("TRANSPORT", "createStreamableHttpClientTransport({ url })")
  .replace("CALL", '"echo", {}')}`,
};

/** The cases of scenario 9: one per implementation that has a client (raw has none). */
export function bundleCases(impls) {
  return impls.filter((impl) => ENTRIES[impl]).map((impl) => ({ impl, label: impl, kind: "bundle" }));
}

/**
 * Bundles `c.impl`'s page code and resolves `{ ok, bytes, gzip, initialBytes, initialGzip, chunks }`
 * (built JavaScript of the published packages: mcpkit's `dist`, built by `pnpm build`, as a user gets it).
 */
export async function bundleSize(c) {
  const dir = mkdtempSync(path.join(tmpdir(), "mcpkit-bench-bundle-"));
  try {
    const entry = path.join(appDir, `.bundle-entry-${c.impl}-${process.pid}.mjs`);
    writeFileSync(entry, ENTRIES[c.impl]);
    let metafile;
    try {
      ({ metafile } = await build({
        entryPoints: [entry],
        bundle: true,
        splitting: true,
        format: "esm",
        platform: "browser",
        target: "es2022",
        minify: true,
        outdir: dir,
        entryNames: "entry",
        logLevel: "silent",
        define: { "process.env.NODE_ENV": '"production"' },
        metafile: true,
      }));
    } finally {
      rmSync(entry, { force: true });
    }
    let bytes = 0;
    let gzip = 0;
    let initialBytes = 0;
    let initialGzip = 0;
    const files = readdirSync(dir).filter((f) => f.endsWith(".js"));
    const initial = staticClosure(metafile, "entry.js");
    for (const file of files) {
      const code = readFileSync(path.join(dir, file));
      const gz = gzipSync(code, { level: 9 }).length;
      bytes += code.length;
      gzip += gz;
      if (initial.has(file)) {
        initialBytes += code.length;
        initialGzip += gz;
      }
    }
    return { ok: true, bytes, gzip, initialBytes, initialGzip, chunks: files.length, ms: initialGzip };
  } catch (error) {
    return { ok: false, error: String(error?.message ?? error) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The output files `entry` loads before it runs: itself and its static imports, transitively. */
function staticClosure(metafile, entry) {
  const name = (p) => path.basename(p);
  const outputs = new Map(Object.entries(metafile.outputs).map(([p, o]) => [name(p), o]));
  const seen = new Set([entry]);
  for (const file of seen) {
    for (const i of outputs.get(file)?.imports ?? []) {
      if (i.kind === "import-statement" && !i.external) seen.add(name(i.path));
    }
  }
  return seen;
}

const kb = (x) => (x === undefined ? "–" : `${(x / 1024).toFixed(1)} KB`);

/** Scenario 9's Markdown table (sizes do not vary by round: the first sample is shown). */
export function bundleTableMarkdown(t) {
  const lines = [
    `### ${t.title}`,
    "",
    "| implementation | initial, gzip | initial, minified | all chunks, gzip | all chunks, minified | chunks |",
    "|---|---|---|---|---|---|",
  ];
  for (const c of t.cases) {
    const s = c.samples.find((x) => x.ok);
    if (!s) {
      lines.push(`| ${c.label} | fails (${String(c.samples[0]?.error ?? "").slice(0, 70)}) | | | | |`);
      continue;
    }
    lines.push(
      `| ${c.label} | ${kb(s.initialGzip)} | ${kb(s.initialBytes)} | ${kb(s.gzip)} | ${kb(s.bytes)} | ${s.chunks} |`,
    );
  }
  const ours = t.cases.find((c) => c.impl === "mcpkit")?.samples.find((x) => x.ok);
  if (ours) {
    const met = ours.initialGzip <= BUNDLE_TARGET_BYTES;
    lines.push(
      "",
      `Target: mcpkit's browser client ≤ ${kb(BUNDLE_TARGET_BYTES)} gzip (initial): ${met ? "met" : "NOT met"}.`,
    );
  }
  return lines.join("\n");
}
