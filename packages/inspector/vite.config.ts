import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The page: Preact through esbuild's automatic JSX (no plugin needed), built to dist/app, served by the
// inspector as static files. No CDN: everything is in the bundle.
export default defineConfig({
  root: fileURLToPath(new URL("./app", import.meta.url)),
  base: "./",
  logLevel: "warn",
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: {
    outDir: fileURLToPath(new URL("./dist/app", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
