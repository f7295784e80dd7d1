import { defineConfig } from "tsup";

// The demo runs with plain node from dist; the workspace packages it uses are built first (turbo).
export default defineConfig({
  entry: ["src/main.ts"],
  format: ["esm"],
  target: "node20",
  clean: true,
  sourcemap: true,
});
