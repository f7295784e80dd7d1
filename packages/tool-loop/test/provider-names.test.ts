// Tool names the MCP spec allows (SEP-986: 1-128 of A-Z a-z 0-9 _ - .) but providers do not
// (^[a-zA-Z0-9_-]{1,64}$): aggregation renames them, and the renaming stays reversible — every offered
// name is provider-valid, unique, and leads back to exactly one server and its own name.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aggregateTools } from "../src/aggregate.js";
import { PROVIDER_TOOL_NAME_PATTERN } from "../src/naming.js";
import { fakeSource } from "../src/test-support/fake-source.js";
import { LONG_TOOL_NAME, useNamedToolServers } from "./support/named-tools-server.js";

const LONG = LONG_TOOL_NAME;
const LONG_TWIN = `reports.quarterly.${"x".repeat(99)}y`; // shares its first 117 characters
/** Valid for MCP, not for providers (dots, over 64 characters), and names their rewriting would hit. */
const NAMES = ["files.read", "files_read", "files.write", "v1.2-beta", LONG, LONG_TWIN, "a".repeat(128)];

const serverWith = useNamedToolServers();

describe("provider-safe names of SEP-986 tool names", () => {
  it("offers provider-valid unique names that call the server by its own name, with and without prefixes", async () => {
    const docs = await serverWith(NAMES);
    const more = await serverWith(["files.read", "search"]);
    for (const sources of [docs, { docs, "more.tools": more }] as const) {
      const aggregation = await aggregateTools(sources);
      const offered = aggregation.tools.map((tool) => tool.name);
      expect(new Set(offered).size).toBe(offered.length);
      for (const name of offered) expect(name).toMatch(PROVIDER_TOOL_NAME_PATTERN);
      // An already valid name is handed out unchanged, so a rewritten one never takes it.
      if (sources === docs) expect(offered).toContain("files_read");
      for (const tool of aggregation.tools) {
        const back = aggregation.resolve(tool.name);
        expect(back?.serverName).toBe(tool.serverName);
        expect(aggregation.localName(tool.sourceId, tool.serverName)).toBe(tool.name);
        const result = await aggregation.call(tool.name, {});
        expect(result.content).toBe(tool.serverName);
      }
      const serverNames = aggregation.tools.map((tool) => `${tool.sourceId}/${tool.serverName}`).sort();
      const expected =
        sources === docs
          ? NAMES.map((name) => `0/${name}`)
          : [...NAMES.map((name) => `docs/${name}`), "more.tools/files.read", "more.tools/search"];
      expect(serverNames).toEqual(expected.sort());
    }
  });

  it("keeps the same names on a refresh", async () => {
    const aggregation = await aggregateTools(await serverWith(NAMES));
    const before = aggregation.tools.map((tool) => tool.name);
    expect(await aggregation.refresh({ all: true })).toBe(false);
    expect(aggregation.tools.map((tool) => tool.name)).toEqual(before);
  });

  it("is a bijection for any set of SEP-986 names (property)", async () => {
    const sep986 = fc.string({
      unit: fc.constantFrom(..."abcXYZ019_-.".split("")),
      minLength: 1,
      maxLength: 128,
    });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(sep986, { minLength: 1, maxLength: 12 }), async (names) => {
        const source = fakeSource(Object.fromEntries(names.map((name) => [name, {}])));
        const aggregation = await aggregateTools(source);
        const offered = aggregation.tools.map((tool) => tool.name);
        expect(new Set(offered).size).toBe(names.length);
        for (const tool of aggregation.tools) {
          expect(tool.name).toMatch(PROVIDER_TOOL_NAME_PATTERN);
          expect(aggregation.resolve(tool.name)?.serverName).toBe(tool.serverName);
        }
        // Sorted: the fake source lists an object's keys, which put integer-like names first.
        expect(aggregation.tools.map((tool) => tool.serverName).sort()).toEqual([...names].sort());
      }),
      { numRuns: 200 },
    );
  });
});
