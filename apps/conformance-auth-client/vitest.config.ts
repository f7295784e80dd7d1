import { mcpkitProject } from "../../vitest.shared.js";

export default mcpkitProject("conformance-auth-client");
