import { defineConfig } from "tsup";

// A self-contained bin: the workspace packages are bundled in, so it runs without building them first.
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  clean: true,
  target: "node20",
  sourcemap: true,
  noExternal: [/.*/],
  esbuildOptions(options) {
    options.conditions = ["@mcpkit/source"];
  },
  banner: { js: "#!/usr/bin/env node" },
});
