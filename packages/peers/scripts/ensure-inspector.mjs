#!/usr/bin/env node
// Installs the inspector CLI into packages/peers/inspector unless it is there already. It lives
// outside the workspace because every inspector release declares Node >= 22 (it runs on 20).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "inspector");
if (!existsSync(join(dir, "node_modules", "@modelcontextprotocol", "inspector", "package.json"))) {
  console.log("installing the MCP inspector CLI for the interop tests (once)…");
  execFileSync(
    "npm",
    [
      "install",
      "--prefix",
      dir,
      "--no-save",
      "--engine-strict=false",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
    ],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
}
