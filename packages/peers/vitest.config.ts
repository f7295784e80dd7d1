import { defineProject } from "vitest/config";

// These tests spawn real peers (node processes, ~1-3 s each), hence the generous timeouts.
export default defineProject({
  test: { name: "peers", include: ["src/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 30_000 },
});
