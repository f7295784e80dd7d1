// Types for every consumer, from the published packages: each TypeScript of the matrix compiles, strict
// and with skipLibCheck off, (a) every ```ts block of the READMEs in a Node 20 project (`types: ["node"]`,
// no DOM), (b) a browser client over @mcpkit/client + @mcpkit/transport-http (DOM, no Node types), and
// (c) the root entries of the runtime-neutral packages in both; then the README's `await using` quick
// start is compiled with the README's tsconfig and run on Node 20.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { run } from "./command.mjs";
import { publicPackages } from "./published.mjs";
import { markedBlocks, typeScriptBlocks } from "./readme-blocks.mjs";
import { npm, npmProject } from "./user-projects.mjs";

/** The TypeScript versions of the matrix, installed under npm aliases. TS 7 is the native port. */
export const TYPESCRIPTS = [
  ["5.4", "5.4.5"],
  ["5.9", "5.9.3"],
  ["6", "6.0.3"],
  ["7", "7.0.2"],
];
/** What the READMEs' snippets import besides our packages, at the versions the workspace tests. */
const THIRD_PARTY = [
  "zod@4.6.7",
  "openai@6.49.0",
  "@anthropic-ai/sdk@1.14.0",
  "ai@6.0.326",
  "@ai-sdk/openai@3.0.141",
  "@types/node@20.19.25",
  "@types/json-schema@7.0.15",
  "@modelcontextprotocol/ext-apps@2.0.4",
];
/** Root entries that must type-check with DOM and no Node types, and with Node types and no DOM. */
const NEUTRAL = [
  "@mcpkit/jsonrpc",
  "@mcpkit/protocol",
  "@mcpkit/client",
  "@mcpkit/server",
  "@mcpkit/transport-http",
  "@mcpkit/auth",
  "@mcpkit/tool-loop",
];

const strict = {
  strict: true,
  skipLibCheck: false,
  noEmit: true,
  target: "es2022",
  verbatimModuleSyntax: false,
};
/** The root README's tsconfig for Node 20 (kept equal to the one it shows; checked below). */
export const NODE_TSCONFIG = {
  compilerOptions: {
    target: "es2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    lib: ["es2022", "esnext.disposable"],
    types: ["node"],
    strict: true,
    skipLibCheck: false,
  },
};

/** The README's Node 20 tsconfig block, parsed (the block marked `docs-test: tsconfig.json`). */
function readmeTsconfig(root) {
  const block = markedBlocks(path.join(root, "README.md")).get("tsconfig.json");
  if (!block) throw new Error("README.md has no block marked docs-test: tsconfig.json");
  return JSON.parse(block);
}

/**
 * Writes the snippets of every public package's README (and the root README) as modules in `dirs.node`;
 * those that need DOM types go to projects with `dom` in `lib`: page code (an MCP App's view, its host over
 * `@mcpkit/apps/host`, `document`/`window`) to `dirs.dom`, and the Vercel AI SDK's to `dirs.aiSdk` (its own
 * types name DOM types and @types/json-schema, and need TypeScript 5.7+). Our root entries need no DOM.
 */
function writeSnippets(root, dirs) {
  const readmes = [
    path.join(root, "README.md"),
    ...publicPackages(root).map((p) => path.join(p.dir, "README.md")),
  ];
  const written = [];
  for (const readme of readmes) {
    let blocks;
    try {
      blocks = typeScriptBlocks(readme);
    } catch {
      continue; // a package without a README is reported by the release check
    }
    const label = path.relative(root, readme).replace(/\/README\.md$|README\.md$/, "") || "root";
    for (const { line, code } of blocks) {
      const file = `${label.replace(/[/]/g, "-")}-${line}.ts`;
      // `export {}` keeps each snippet a module of its own (top-level await, no clashes between snippets).
      const page =
        /from "(@modelcontextprotocol\/ext-apps|@mcpkit\/apps\/host)"/.test(code) ||
        /\b(document|window)\./.test(code);
      const target = /from "(ai|@ai-sdk\/[^"]+)"/.test(code) ? dirs.aiSdk : page ? dirs.dom : dirs.node;
      writeFileSync(path.join(target, file), `${code}\nexport {};\n`);
      written.push({ file, where: `${path.relative(root, readme)}:${line}` });
    }
  }
  return written;
}

const tsc = (project, version) => path.join(project, "node_modules", `typescript-${version}`, "bin", "tsc");

/** Compiles `tsconfig` in `dir` with TypeScript `version`; resolves with the errors (empty when clean). */
async function compile(project, dir, version) {
  try {
    await run(process.execPath, [tsc(project, version), "-p", dir, "--pretty", "false"], {
      cwd: dir,
      timeout: 300_000,
    });
    return [];
  } catch (error) {
    return String(error.message)
      .split("\n")
      .filter((l) => /error TS\d+/.test(l))
      .map((l) => l.replace(`${dir}/`, ""));
  }
}

/** Runs the matrix in `dir` against `registry`, reporting each cell through `check(name, fn)`. */
export async function typeMatrix({ root, dir, registry, check }) {
  const packages = publicPackages(root).map((p) => p.name);
  const aliases = TYPESCRIPTS.map(([k, v]) => `typescript-${k}@npm:typescript@${v}`);
  const ready = await check(
    "the type matrix's project: the packages from the registry, TypeScript 5.4 / 5.9 / 6 / 7",
    async () => {
      npmProject(dir, registry);
      await npm(dir, `npm i ${[...packages, ...THIRD_PARTY, ...aliases].join(" ")}`, registry);
      const shown = readmeTsconfig(root);
      if (JSON.stringify(shown) !== JSON.stringify(NODE_TSCONFIG))
        throw new Error(
          `README.md's tsconfig.json differs from the one the matrix checks:\n${JSON.stringify(shown)}`,
        );
      return [
        `installed: ${readdirSync(path.join(dir, "node_modules"))
          .filter((n) => n.startsWith("typescript-"))
          .join(", ")}`,
      ];
    },
  );
  if (!ready) return;

  const node = path.join(dir, "node20");
  const withDom = path.join(dir, "node20-dom");
  const aiSdk = path.join(dir, "node20-ai-sdk");
  for (const d of [node, withDom, aiSdk]) {
    rmSync(d, { recursive: true, force: true });
    mkdirSync(d, { recursive: true });
  }
  const snippets = writeSnippets(root, { node, dom: withDom, aiSdk });
  // What the snippets take as already there (the reader's server, secrets, earlier imports), typed.
  const context = readFileSync(new URL("../snippet-context/context.d.ts", import.meta.url));
  writeFileSync(path.join(node, "context.d.ts"), context);
  const nodeOptions = { ...NODE_TSCONFIG.compilerOptions, ...strict };
  for (const d of [withDom, aiSdk]) {
    writeFileSync(path.join(d, "context.d.ts"), context);
    writeFileSync(
      path.join(d, "tsconfig.json"),
      JSON.stringify(
        { compilerOptions: { ...nodeOptions, lib: [...nodeOptions.lib, "dom"] }, include: ["*.ts"] },
        null,
        2,
      ),
    );
  }
  writeFileSync(
    path.join(node, "neutral-entries.ts"),
    `${NEUTRAL.map((n, i) => `import type * as m${i} from "${n}";`).join("\n")}\nexport type All = [${NEUTRAL.map((_, i) => `typeof m${i}`).join(", ")}];\n`,
  );
  writeFileSync(
    path.join(node, "tsconfig.json"),
    JSON.stringify(
      { compilerOptions: { ...NODE_TSCONFIG.compilerOptions, ...strict }, include: ["*.ts"] },
      null,
      2,
    ),
  );

  const browser = path.join(dir, "browser");
  mkdirSync(browser, { recursive: true });
  writeFileSync(
    path.join(browser, "client.ts"),
    `import { createClient } from "@mcpkit/client";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";

export async function forecast(url: string): Promise<unknown> {
  const client = createClient({ name: "page", version: "1.0.0" });
  await client.connect(() => createStreamableHttpClientTransport({ url }));
  try {
    const result = await client.callTool("forecast", { city: "Lisbon" });
    document.title = result.content;
    return result.structured;
  } finally {
    await client.close();
  }
}
`,
  );
  writeFileSync(
    path.join(browser, "neutral-entries.ts"),
    readFileSync(path.join(node, "neutral-entries.ts")),
  );
  writeFileSync(
    path.join(browser, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          ...strict,
          module: "esnext",
          moduleResolution: "bundler",
          lib: ["dom", "es2022"],
          types: [],
        },
        include: ["*.ts"],
      },
      null,
      2,
    ),
  );

  const quick = path.join(dir, "quick-start");
  mkdirSync(quick, { recursive: true });
  writeFileSync(path.join(quick, "client.ts"), markedBlocks(path.join(root, "README.md")).get("client.ts"));
  writeFileSync(
    path.join(quick, "weather-server.js"),
    markedBlocks(path.join(root, "README.md")).get("weather-server.js"),
  );
  writeFileSync(path.join(quick, "package.json"), '{ "type": "module" }\n');

  // MCPKIT_RELEASE_CHECK_TS=5.9,7 narrows the matrix (a quicker run by hand); CI runs all of it.
  const only = process.env.MCPKIT_RELEASE_CHECK_TS?.split(",");
  for (const [version] of TYPESCRIPTS.filter(([v]) => !only || only.includes(v))) {
    await check(
      `TypeScript ${version}: the READMEs' ${snippets.length} TypeScript blocks + root entries, Node 20 project (no DOM)`,
      async () => {
        const errors = [...(await compile(dir, node, version)), ...(await compile(dir, withDom, version))];
        // The AI SDK's own types use the generic Uint8Array of TypeScript 5.7+ (theirs, not ours).
        const aiSdkSkipped = version === "5.4";
        if (!aiSdkSkipped) errors.push(...(await compile(dir, aiSdk, version)));
        if (errors.length > 0) {
          const byFile = new Map(snippets.map((s) => [s.file, s.where]));
          throw new Error(
            errors
              .map((e) => {
                const f = e.split("(")[0];
                return byFile.has(f) ? `${byFile.get(f)} → ${e}` : e;
              })
              .join("\n"),
          );
        }
        return aiSdkSkipped
          ? ["skipped: the Vercel AI SDK snippet (its own types need TypeScript 5.7+)"]
          : [];
      },
    );
    await check(
      `TypeScript ${version}: a browser client over @mcpkit/client + @mcpkit/transport-http + root entries (DOM, no Node types)`,
      async () => {
        const errors = await compile(dir, browser, version);
        if (errors.length > 0) throw new Error(errors.join("\n"));
      },
    );
    await check(
      `TypeScript ${version}: the README's \`await using\` quick start, compiled with its tsconfig, runs on Node 20`,
      async () => {
        const out = path.join(quick, `out-${version}`);
        writeFileSync(
          path.join(quick, "tsconfig.json"),
          JSON.stringify(
            { compilerOptions: { ...NODE_TSCONFIG.compilerOptions, outDir: out }, files: ["client.ts"] },
            null,
            2,
          ),
        );
        await run(process.execPath, [tsc(dir, version), "-p", quick, "--pretty", "false"], {
          cwd: quick,
          timeout: 300_000,
        });
        writeFileSync(
          path.join(out, "weather-server.js"),
          readFileSync(path.join(quick, "weather-server.js")),
        );
        writeFileSync(path.join(out, "package.json"), '{ "type": "module" }\n');
        const printed = await run(process.execPath, ["client.js"], { cwd: out, timeout: 60_000 });
        if (!printed.includes("sunny")) throw new Error(`the compiled client.ts printed:\n${printed}`);
      },
    );
  }
}
