import { defineConfig, packageBuild } from "../../tsup.shared.js";

export default defineConfig([
  packageBuild(),
  // The CLI: ESM only, with its shebang kept.
  { entry: ["src/bin.ts"], format: ["esm"], target: "node20", sourcemap: true },
]);
