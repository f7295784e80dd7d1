// A handler's raw file-system error names a path on the server's machine: the client must not read it.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, legacyCall, makeCore, modernCall } from "../test/unit-kit.js";
import { readResource } from "./resources.js";
import { callTool } from "./tools.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpkit-fs-leak-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("[issue-25.weak] raw fs errors", () => {
  it("[issue-25.weak] a tool that fails reading a file answers its code only; the path goes to the logger", async () => {
    const core = makeCore();
    const missing = join(dir, "secret-folder", "missing.txt");
    core.registry.addTool("read", {}, () => readFile(missing, "utf8"));
    core.registry.addTool("plain", {}, () => {
      throw new Error("the quota is exhausted");
    });
    for (const call of [legacyCall("tools/call"), modernCall("tools/call")]) {
      const result = await callTool(core, call, { name: "read", arguments: {} });
      const text = JSON.stringify(result);
      expect(result.isError).toBe(true);
      expect(text).not.toContain(dir);
      expect(text).toContain("ENOENT");
    }
    expect(JSON.stringify(core.logged.map((entry) => String(entry[1])))).toContain(missing);
    // An error of the app's own keeps its message: the model needs it.
    const plain = await callTool(core, legacyCall("tools/call"), { name: "plain", arguments: {} });
    expect(plain.content).toEqual([{ type: "text", text: "the quota is exhausted" }]);
  });

  it("[issue-25.weak] a resource handler's fs error is a generic -32603", async () => {
    const core = makeCore();
    core.registry.addTemplate("files://{name}", { name: "file" }, (_uri, vars) =>
      readFile(join(dir, String(vars.name)), "utf8"),
    );
    const error = await errorOf(() =>
      readResource(core, legacyCall("resources/read"), { uri: "files://nope.txt" }),
    );
    expect(
      JSON.stringify({ message: error.message, data: (error as { data?: unknown }).data }),
    ).not.toContain(dir);
  });
});
