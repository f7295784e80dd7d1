import { bundledBin, defineConfig } from "../../tsup.shared.js";

// One self-contained script: the @mcpkit packages (from their sources), zod and ajv are bundled in, so
// `node dist/main.js` starts fast with plain node and needs no build of the packages first.
export default defineConfig(bundledBin(["src/main.ts"], { platform: "node", splitting: false }));
