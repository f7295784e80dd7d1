import { defineConfig, packageBuild } from "../../tsup.shared.js";

// jsonrpc-lite ships CommonJS only: bundled in, Node's ESM loader would otherwise run its CommonJS
// export scan on every start (≈ 13 ms of a 25 ms import). It is MIT and small (11 KB).
export default defineConfig({ ...packageBuild(), noExternal: ["jsonrpc-lite"] });
