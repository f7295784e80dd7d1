import { mcpkitProject } from "../../vitest.shared.js";

// These tests spawn real peers (node processes, ~1-3 s each), hence the generous timeout.
export default mcpkitProject("peers", { include: ["src/**/*.test.ts"], testTimeout: 60_000 });
