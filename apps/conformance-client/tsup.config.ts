import { bundledBin, defineConfig } from "../../tsup.shared.js";

// A self-contained bin: the workspace packages are bundled in, so it runs without building them first.
export default defineConfig(bundledBin());
