// Builds the counter view (src/view/counter-view.ts, with the official ext-apps App and its
// dependencies) into one self-contained HTML file. `node scripts/build-view.mjs` writes dist/view.html
// (the package's build runs it); the tests call buildViewHtml() to get the same HTML without a build.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { singleFileHtml } from "@mcpkit/apps";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The counter view as one HTML document (its script minified and inlined). `extApps: "v1"` builds the
 * same source with ext-apps 1.7.5's App instead of 2.x's (the tests check a 1.x view under our host).
 */
export async function buildViewHtml({ extApps = "v2" } = {}) {
  const result = await build({
    ...(extApps === "v1" && { alias: { "@modelcontextprotocol/ext-apps": "ext-apps-v1" } }),
    entryPoints: [path.join(root, "src/view/counter-view.ts")],
    // esbuild resolves an alias's target from the working directory: this package's, whoever calls.
    absWorkingDir: root,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    write: false,
    logLevel: "silent",
  });
  return singleFileHtml({ script: result.outputFiles[0].text, title: "Counter" });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const html = await buildViewHtml();
  await mkdir(path.join(root, "dist"), { recursive: true });
  await writeFile(path.join(root, "dist/view.html"), html);
  process.stdout.write(`view.html: ${html.length} bytes\n`);
}
