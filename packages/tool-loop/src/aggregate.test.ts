import { describe, expect, it } from "vitest";
import { aggregateTools } from "./aggregate.js";
import { ToolNameCollisionError, UnknownToolError } from "./errors.js";
import { isProviderToolName, PROVIDER_TOOL_NAME_PATTERN, sanitizeToolName } from "./naming.js";
import { fakeSource } from "./test-support/fake-source.js";

describe("aggregateTools", () => {
  it("prefixes local names only: the server is called by its own name (round trip)", async () => {
    const fs = fakeSource({ read_file: {}, write_file: {} });
    const memory = fakeSource({ read_file: {} });
    const tools = await aggregateTools({ fs, memory });
    expect(tools.tools.map((tool) => tool.name)).toEqual([
      "fs__read_file",
      "fs__write_file",
      "memory__read_file",
    ]);
    expect(tools.tools[2]).toMatchObject({
      serverName: "read_file",
      sourceId: "memory",
      description: "the read_file tool",
    });

    await tools.call("memory__read_file", { path: "/x" });
    expect(memory.calls).toEqual([{ name: "read_file", args: { path: "/x" } }]);
    expect(fs.calls).toEqual([]);
    expect(tools.resolve("fs__write_file")).toMatchObject({
      sourceId: "fs",
      serverName: "write_file",
      source: fs,
    });
    expect(tools.localName("memory", "read_file")).toBe("memory__read_file");
    expect(tools.resolve("read_file")).toBeUndefined();
  });

  it("takes a single source, a list of sources and entries, a separator and page-shaped listTools answers", async () => {
    const plain = fakeSource({ echo: {} });
    expect((await aggregateTools(plain)).tools.map((tool) => tool.name)).toEqual(["echo"]);

    const paged = { ...fakeSource({ add: {} }), listTools: async () => ({ tools: [{ name: "add" }] }) };
    const tools = await aggregateTools([plain, { source: paged, prefix: "math", id: "calc" }], {
      separator: "_",
    });
    expect(tools.tools.map((tool) => [tool.name, tool.sourceId])).toEqual([
      ["echo", "0"],
      ["math_add", "calc"],
    ]);
  });

  it("rejects a name collision before any call, naming both origins", async () => {
    const a = fakeSource({ search: {} });
    const b = fakeSource({ search: {} });
    const error = await aggregateTools([a, b]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolNameCollisionError);
    expect(error).toMatchObject({ toolName: "search", origins: ["0/search", "1/search"] });
    expect(a.calls.length + b.calls.length).toBe(0);

    // The same prefix on two sources collides too.
    await expect(
      aggregateTools([
        { source: a, prefix: "x" },
        { source: b, prefix: "x" },
      ]),
    ).rejects.toThrow(ToolNameCollisionError);
  });

  it("makes names provider-valid through a reversible table, even when rewriting clashes", async () => {
    const source = fakeSource({ "files.read": {}, "files:read": {}, files_read: {}, "ünïcode tool": {} });
    const tools = await aggregateTools(source);
    const names = tools.tools.map((tool) => tool.name);
    expect(names[2]).toBe("files_read"); // already valid: kept, never taken by a rewritten name
    expect(names[0]).toMatch(/^files_read_[0-9a-f]{8}$/);
    expect(names[1]).toMatch(/^files_read_[0-9a-f]{8}$/);
    expect(names[3]).toBe("_n_code_tool");
    expect(new Set(names).size).toBe(4);
    for (const name of names) expect(name).toMatch(PROVIDER_TOOL_NAME_PATTERN);

    for (const tool of tools.tools) {
      await tools.call(tool.name, {});
      expect(source.calls.at(-1)?.name).toBe(tool.serverName);
    }
    expect(source.calls.map((call) => call.name)).toEqual([
      "files.read",
      "files:read",
      "files_read",
      "ünïcode tool",
    ]);
  });

  it("cuts long names to 64 with a hash so long names sharing a start stay distinct", async () => {
    const long = "x".repeat(70);
    const source = fakeSource({ [`${long}_one`]: {}, [`${long}_two`]: {} });
    const tools = await aggregateTools({ averyveryverylongprefix: source });
    const [one, two] = tools.tools.map((tool) => tool.name);
    expect(one).toHaveLength(64);
    expect(two).toHaveLength(64);
    expect(one).not.toBe(two);
    expect(tools.resolve(two!)?.serverName).toBe(`${long}_two`);
    expect(sanitizeToolName("ok_name-1")).toBe("ok_name-1");
    expect(isProviderToolName("a".repeat(65))).toBe(false);
  });

  it("filters with include/exclude per source and globally, by name or predicate", async () => {
    const source = fakeSource({
      a: {},
      b: {},
      c: {},
      d: { descriptor: { annotations: { destructiveHint: true } } },
    });
    const tools = await aggregateTools(
      [{ source, include: ["a", "b", "d"], exclude: (tool) => tool.name === "b" }],
      {
        exclude: (tool) => tool.annotations?.destructiveHint === true,
      },
    );
    expect(tools.tools.map((tool) => tool.name)).toEqual(["a"]);
  });

  it("uses the naming hook, then still checks validity and collisions", async () => {
    const source = fakeSource({ read: {}, write: {} });
    const tools = await aggregateTools([{ source, prefix: "fs" }], {
      name: (tool, context) => `${context.prefix}.${tool.name}.${context.index}`,
    });
    expect(tools.tools.map((tool) => tool.name)).toEqual(["fs_read_0", "fs_write_0"]);
    await expect(aggregateTools(source, { name: () => "same" })).rejects.toThrow(
      /"same" is used by more than one tool/,
    );
  });

  it("rejects a call to an unknown name with UnknownToolError", async () => {
    const tools = await aggregateTools(fakeSource({ a: {} }));
    await expect(tools.call("nope", {})).rejects.toBeInstanceOf(UnknownToolError);
  });
});
