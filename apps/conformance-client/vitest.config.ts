import { mcpkitProject } from "../../vitest.shared.js";

export default mcpkitProject("conformance-client", { testTimeout: 300_000 });
