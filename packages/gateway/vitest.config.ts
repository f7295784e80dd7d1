import { mcpkitProject } from "../../vitest.shared.js";

export default mcpkitProject("gateway");
