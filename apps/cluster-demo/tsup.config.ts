import { bundledBin, defineConfig } from "../../tsup.shared.js";

// Self-contained scripts (the workspace packages bundled in from their sources, the test-kit proxy too),
// run with plain node: the demo, and the round-robin proxy on its own (the bench uses it).
export default defineConfig(bundledBin(["src/main.ts", "src/proxy.ts"], { platform: "node" }));
