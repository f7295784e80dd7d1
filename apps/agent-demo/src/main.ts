#!/usr/bin/env node
// The main job: an agent that uses tools on two MCP servers at once (stdio and HTTP).
// Usage: mcpkit-agent-demo [--no-stream] [--yes] [prompt…]
import { createInterface } from "node:readline/promises";
import { runDemo } from "./demo.js";

const argv = process.argv.slice(2);
const flags = new Set<string>(argv.filter((arg) => arg === "--no-stream" || arg === "--yes"));
const prompt = argv.filter((arg) => !flags.has(arg)).join(" ") || undefined;

// Destructive tools are put to the user only when there is one: a terminal on both ends.
const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

runDemo({
  ...(prompt ? { prompt } : {}),
  stream: !flags.has("--no-stream"),
  yes: flags.has("--yes"),
  ...(interactive ? { confirm } : {}),
  out: { write: (line) => console.log(line), stream: (text) => process.stdout.write(text) },
}).then(
  () => process.exit(0),
  (error: Error) => {
    console.error(`agent-demo: ${error.message}`);
    process.exit(1);
  },
);
