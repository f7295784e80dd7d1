import { mcpkitProject } from "../../vitest.shared.js";

export default mcpkitProject("inspector", { testTimeout: 60_000, hookTimeout: 60_000 });
