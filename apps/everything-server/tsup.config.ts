import { defineConfig } from "tsup";

// One self-contained script: the @mcpkit packages (from their sources), zod and ajv are bundled in, so
// `node dist/main.js` starts fast with plain node and needs no build of the packages first.
export default defineConfig({
  entry: ["src/main.ts"],
  format: ["esm"],
  clean: true,
  target: "node20",
  platform: "node",
  sourcemap: true,
  splitting: false,
  noExternal: [/.*/],
  esbuildOptions(options) {
    options.conditions = ["@mcpkit/source"];
  },
  // ajv is CommonJS; give its bundled require() calls a real require.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
});
