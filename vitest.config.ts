import { defineConfig } from "vitest/config";

// One root config, a project per package. The source condition makes tests run
// against src/*.ts with no build first; it must be set for both resolvers.
export default defineConfig({
  resolve: { conditions: ["@mcpkit/source"] },
  ssr: { resolve: { conditions: ["@mcpkit/source"] } },
  test: {
    projects: ["packages/*", "apps/*"],
    // In CI a JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".ci-out/vitest.json" }]] : ["default"],
    // Quiet by default: console output of a test (wire logs, servers' stderr) is printed only when that test
    // fails; MCPKIT_TEST_VERBOSE=1 prints all of it.
    silent: process.env.MCPKIT_TEST_VERBOSE === "1" ? false : "passed-only",
    // vitest's default is one worker per core less one: a single worker on a 2-core machine, idle while a
    // test waits on a child process or a socket (most of ours do). Three keep both cores busy.
    maxWorkers: Number(process.env.MCPKIT_TEST_WORKERS ?? 3),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
