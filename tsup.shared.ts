import { defineConfig, type Options } from "tsup";

/**
 * The build of a published package: ESM + CJS + `.d.ts` for each entry (index, plus subpaths such as
 * `src/node.ts`), for Node 20, with source maps (kept out of the published files by `files`).
 */
export function packageBuild(entry: string[] = ["src/index.ts"]): Options {
  return { entry, format: ["esm", "cjs"], dts: true, clean: true, target: "node20", sourcemap: true };
}

/**
 * The build of an app's bin: one self-contained ESM file with the workspace packages bundled in from
 * their sources (so it starts fast and needs no package build first), a shebang on top.
 */
export function bundledBin(entry: string[] = ["src/index.ts"], extra: Options = {}): Options {
  return {
    entry,
    format: ["esm"],
    clean: true,
    target: "node20",
    sourcemap: true,
    noExternal: [/.*/],
    esbuildOptions(options) {
      options.conditions = ["@mcpkit/source"];
    },
    // Bundled CommonJS dependencies (ajv) call require(): give the ESM bundle a real one.
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    ...extra,
  };
}

export { defineConfig };
