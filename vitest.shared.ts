import { defineProject, type UserWorkspaceConfig } from "vitest/config";

// Every project resolves workspace packages to their sources (the "@mcpkit/source" export
// condition), so tests need no build first. Project configs do not inherit the root's `resolve`.
const conditions = ["@mcpkit/source", "module", "node", "import", "default"];

/** The vitest project config of one package: its name, plus anything it adds under `test`. */
export function mcpkitProject(name: string, test: UserWorkspaceConfig["test"] = {}): UserWorkspaceConfig {
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: {
      name,
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      testTimeout: 30_000,
      hookTimeout: 30_000,
      ...test,
    },
  });
}
