import { describe, expect, it } from "vitest";

describe("the public surface", () => {
  it("exports exactly these runtime names", async () => {
    expect(Object.keys(await import("./index.js")).sort()).toMatchInlineSnapshot(`
      [
        "InputRequiredSignal",
        "TaskCancelledError",
        "createInMemoryTaskStore",
        "createServer",
        "isInputRequired",
        "isNotificationEvent",
        "isStandardSchema",
        "withInputSchema",
      ]
    `);
  });

  it("imports no node:* module outside tests and the ./node entry (runtime-neutral)", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const path = await import("node:path");
    const { fileURLToPath } = await import("node:url");
    const root = path.dirname(fileURLToPath(import.meta.url));
    const files = (readdirSync(root, { recursive: true }) as string[]).filter(
      // node.ts is the `./node` entry (skills from disk); nothing of the root entry imports it.
      (f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "node.ts",
    );
    const offenders = files.filter((f) =>
      /from\s+["']node:|require\(["']node:/.test(readFileSync(path.join(root, f), "utf8")),
    );
    expect(files.length).toBeGreaterThan(5);
    expect(offenders).toEqual([]);
  });
});
