import { mcpkitProject } from "../../vitest.shared.js";

export default mcpkitProject("everything-server", { testTimeout: 60_000 });
