// The code blocks of the READMEs, as a user copies them.
import { readFileSync } from "node:fs";

/** The blocks marked `<!-- docs-test: NAME -->` in a Markdown file, by the file name they are saved as. */
export function markedBlocks(file) {
  const blocks = new Map();
  const pattern = /<!-- docs-test: (\S+) -->\n```(\w+)\n([\s\S]*?)\n```/g;
  for (const match of readFileSync(file, "utf8").matchAll(pattern)) blocks.set(match[1], `${match[3]}\n`);
  return blocks;
}

/** Every ```ts block of a Markdown file, with the line it starts on. */
export function typeScriptBlocks(file) {
  const blocks = [];
  const text = readFileSync(file, "utf8");
  const pattern = /^```ts\n([\s\S]*?)\n```/gm;
  for (const match of text.matchAll(pattern)) {
    blocks.push({ line: text.slice(0, match.index).split("\n").length, code: `${match[1]}\n` });
  }
  return blocks;
}
