import { defineConfig } from "tsup";

// Self-contained scripts: the workspace packages (from their sources) and ajv are bundled in, so the
// app starts in well under a second with no TypeScript loader and no build of the packages first.
export default defineConfig({
  entry: ["src/main.ts", "src/stdio.ts"],
  format: ["esm"],
  clean: true,
  target: "node20",
  sourcemap: true,
  noExternal: [/.*/],
  esbuildOptions(options) {
    options.conditions = ["@mcpkit/source"];
  },
  // ajv is CommonJS; give its bundled require() calls a real require.
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
});
