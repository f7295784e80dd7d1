import { bundledBin, defineConfig } from "../../tsup.shared.js";

// Self-contained scripts: the workspace packages (from their sources) and ajv are bundled in, so the
// app starts in well under a second with no TypeScript loader and no build of the packages first.
export default defineConfig(bundledBin(["src/main.ts", "src/stdio.ts"]));
