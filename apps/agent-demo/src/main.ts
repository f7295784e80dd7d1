#!/usr/bin/env node
// The main job: an agent that uses tools on two MCP servers at once (stdio and HTTP).
import { runDemo } from "./demo.js";

const prompt = process.argv.slice(2).join(" ") || undefined;
runDemo(prompt ? { prompt } : {}).then(
  () => process.exit(0),
  (error: Error) => {
    console.error(`agent-demo: ${error.message}`);
    process.exit(1);
  },
);
