// Builds the counter view (src/view/counter-view.ts, with the official ext-apps App and its
// dependencies) into one self-contained HTML file. `node scripts/build-view.mjs` writes dist/view.html
// (the package's build runs it); the tests call buildViewHtml() to get the same HTML without a build.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { singleFileHtml } from "@mcpkit/apps";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The counter view as one HTML document (its script minified and inlined). */
export async function buildViewHtml() {
  const result = await build({
    entryPoints: [path.join(root, "src/view/counter-view.ts")],
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
