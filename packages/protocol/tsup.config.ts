import { defineConfig, packageBuild } from "../../tsup.shared.js";

// telemetry and skill-content are entries of their own: a bundler leaves them out of a client that never
// imports them (a dynamic import of a module the index re-exported would still be loaded up front).
export default defineConfig(packageBuild(["src/index.ts", "src/telemetry.ts", "src/skill-content.ts"]));
