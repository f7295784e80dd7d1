// The guides hold no code of their own: every TypeScript or JavaScript block is an imported file of
// apps/docs/examples (`<<< @/../docs/examples/…`), which the docs tests run, and every import names a file
// that exists and that those tests cover. Only shell command lines may be written inline.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const site = join(dirname(fileURLToPath(import.meta.url)), "..");
const examples = join(site, "..", "docs", "examples");
const pages = ["index.md", ...readdirSync(join(site, "guide")).map((file) => `guide/${file}`)].filter(
  (file) => file.endsWith(".md"),
);
const read = (page: string) => readFileSync(join(site, page), "utf8");

describe("every code block of the guides is an example file", () => {
  it("has no inline TypeScript or JavaScript block", () => {
    const inline = pages.flatMap((page) =>
      [...read(page).matchAll(/^```(\w+)/gm)]
        .map((match) => match[1]!)
        .filter((lang) => !["sh", "bash", "console"].includes(lang))
        .map((lang) => `${page}: a \`\`\`${lang} block`),
    );
    expect(inline).toEqual([]);
  });

  it("imports only files that exist under apps/docs/examples", () => {
    const imports = pages.flatMap((page) =>
      [
        ...read(page).matchAll(
          /^<<< @\/\.\.\/docs\/examples\/([\w./-]+?)(?:#[\w-]+)?(?:\{[^}]*\})?(?: \[.*\])?$/gm,
        ),
      ].map((match) => ({ page, file: match[1]! })),
    );
    expect(imports.length).toBeGreaterThan(40);
    expect(imports.filter(({ file }) => !existsSync(join(examples, file)))).toEqual([]);
  });

  it("imports files the docs tests run (each listed in apps/docs/test)", () => {
    const tests = ["examples.test.ts", "guide-examples.test.ts"]
      .map((file) => readFileSync(join(site, "..", "docs", "test", file), "utf8"))
      .join("\n");
    const runtimes = readFileSync(join(site, "..", "runtimes", "src", "runner", "cells.mjs"), "utf8");
    const unrun = pages.flatMap((page) =>
      [...read(page).matchAll(/^<<< @\/\.\.\/docs\/examples\/([\w./-]+?)(?:#|\s|$)/gm)]
        .map((match) => match[1]!)
        .filter((file) => {
          if (file.startsWith("runtimes/")) return !runtimes.includes("examples/runtimes"); // pnpm test:runtimes
          if (file === "mcp.json") return !tests.includes('"examples/mcp.json"'); // the CLI test's config file
          return !tests.includes(`"${file}"`);
        })
        .map((file) => `${page}: ${file}`),
    );
    expect(unrun).toEqual([]);
  });

  it("every page is in the sidebar", () => {
    const config = readFileSync(join(site, ".vitepress", "config.mts"), "utf8");
    const guides = pages
      .filter((page) => page.startsWith("guide/"))
      .map((page) => `/${page.replace(/\.md$/, "")}"`);
    expect(guides.filter((link) => !config.includes(link))).toEqual([]);
  });
});
