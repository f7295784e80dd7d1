import { describe, expect, it } from "vitest";
import { diffSchemas } from "./schema-diff.js";
import { diffSurfaces, formatSurfaceDiff } from "./surface-diff.js";

describe("diffSchemas", () => {
  const before = {
    type: "object",
    properties: { city: { type: "string" }, unit: { enum: ["c", "f"] }, days: { type: "integer" } },
    required: ["city"],
  };

  it("compares structurally: key order and descriptions do not count", () => {
    const same = {
      required: ["city"],
      properties: {
        days: { type: "integer" },
        unit: { enum: ["c", "f"] },
        city: { type: "string", description: "x" },
      },
      type: "object",
    };
    expect(diffSchemas(before, same, "input")).toEqual([]);
  });

  it("marks what breaks a client writing input, and what does not", () => {
    const after = {
      type: "object",
      properties: {
        unit: { enum: ["c"] },
        days: { type: "integer" },
        country: { type: "string" },
        note: { type: "string" },
      },
      required: ["country", "days"],
    };
    expect(diffSchemas(before, after, "input")).toEqual([
      { path: "properties.city", change: "required property removed", breaking: true },
      { path: "properties.unit", change: 'enum values removed: "f"', breaking: true },
      { path: "properties.country", change: "required property added", breaking: true },
      { path: "properties.note", change: "optional property added", breaking: false },
      { path: "properties.days", change: "newly required", breaking: true },
    ]);
  });

  it("for output, a property no longer required or a widened type breaks the reader", () => {
    const out = { type: "object", properties: { temp: { type: "number" } }, required: ["temp"] };
    const after = { type: "object", properties: { temp: { type: ["number", "null"] } } };
    expect(diffSchemas(out, after, "output")).toEqual([
      { path: "properties.temp", change: "type number → null|number", breaking: true },
      { path: "properties.temp", change: "no longer required", breaking: true },
    ]);
  });
});

describe("diffSurfaces", () => {
  it("lists prompts, resources, templates and capabilities added, removed or changed", () => {
    const a = {
      capabilities: { tools: {}, prompts: {}, logging: {} },
      tools: [{ name: "t", inputSchema: { type: "object" } }],
      prompts: [{ name: "plan", arguments: [{ name: "city" }] }],
      resources: [{ uri: "a://1", name: "one", mimeType: "text/plain" }],
      resourceTemplates: [{ uriTemplate: "a://{id}", name: "any" }],
    };
    const b = {
      capabilities: { tools: { listChanged: true }, prompts: {} },
      tools: [{ name: "t", inputSchema: { type: "object" }, description: "now described" }],
      prompts: [{ name: "plan", arguments: [{ name: "city", required: true }] }],
      resources: [
        { uri: "a://1", name: "one", mimeType: "application/json" },
        { uri: "a://2", name: "two" },
      ],
      resourceTemplates: [],
    };
    const diff = diffSurfaces(a, b);
    expect(diff.changes.map((c) => [c.kind, c.name, c.change, c.breaking])).toEqual([
      ["tool", "t", "changed", false],
      ["prompt", "plan", "changed", true],
      ["resource", "a://1", "changed", true],
      ["resource", "a://2", "added", false],
      ["template", "a://{id}", "removed", true],
      ["capability", "tools", "changed", false],
      ["capability", "logging", "removed", true],
    ]);
    expect(formatSurfaceDiff(diff)).toContain("      argument city newly required (breaking)");
    // A list one side never fetched is not compared.
    expect(
      diffSurfaces(
        { capabilities: {}, tools: [] },
        { capabilities: {}, tools: [], prompts: [{ name: "p" }] },
      ),
    ).toEqual({
      changes: [],
      breaking: false,
    });
  });
});
