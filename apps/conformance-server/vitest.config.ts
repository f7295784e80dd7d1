import { mcpkitProject } from "../../vitest.shared.js";

export default mcpkitProject("conformance-server", { testTimeout: 120_000 });
