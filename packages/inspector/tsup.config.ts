import { defineConfig, packageBuild } from "../../tsup.shared.js";

export default defineConfig(packageBuild(["src/index.ts"]));
