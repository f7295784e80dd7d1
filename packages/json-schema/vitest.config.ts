import { mcpkitProject } from "../../vitest.shared.js";

export default mcpkitProject("json-schema");
