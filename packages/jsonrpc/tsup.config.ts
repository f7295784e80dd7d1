import { defineConfig, packageBuild } from "../../tsup.shared.js";

// jsonrpc-lite ships CommonJS only: bundled in, Node's ESM loader would otherwise run its CommonJS
// export scan on every start (≈ 13 ms of a 25 ms import). It is MIT and small (11 KB).
// wire-trace is an entry of its own: a client that never traces never loads it.
export default defineConfig({
  ...packageBuild(["src/index.ts", "src/wire-trace.ts"]),
  noExternal: ["jsonrpc-lite"],
});
