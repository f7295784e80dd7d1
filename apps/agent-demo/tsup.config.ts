import { bundledBin, defineConfig } from "../../tsup.shared.js";

// The demo runs with plain node from dist. The @mcpkit packages are bundled in from their sources, so
// `pnpm demo` builds two files (this and the everything server) and no package first; the provider SDKs
// stay external (installed dependencies).
export default defineConfig(
  bundledBin(["src/main.ts"], {
    platform: "node",
    splitting: false,
    noExternal: [/^@mcpkit\//, /^mcpkit$/],
    // src/main.ts carries its own shebang; bundled CommonJS (ajv) still gets a real require().
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  }),
);
