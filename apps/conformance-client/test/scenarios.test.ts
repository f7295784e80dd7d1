// The scenario driver against our own server over real HTTP on 127.0.0.1, in both revisions (the suite
// itself runs from scripts/run-conformance.mjs; this checks the driver without it).
import { createServer } from "@mcpkit/server";
import { listen } from "@mcpkit/transport-http/node";
import { describe, expect, it } from "vitest";
import { run, sampleArguments } from "../src/scenarios.js";

describe("sampleArguments", () => {
  it("gives every required property a value of its type", () => {
    expect(
      sampleArguments({
        type: "object",
        properties: {
          s: { type: "string" },
          i: { type: "integer" },
          b: { type: "boolean" },
          e: { type: "string", enum: ["x", "y"] },
          o: { type: "object" },
          optional: { type: "string" },
        },
        required: ["s", "i", "b", "e", "o"],
      }),
    ).toEqual({ s: "test", i: 1, b: true, e: "x", o: {} });
    expect(sampleArguments(undefined)).toEqual({});
  });
});

describe("run", () => {
  it.each(["2026-07-28", "2025-11-25"])("plays tools_call at %s", async (revision) => {
    const calls: unknown[] = [];
    const server = createServer({ name: "mock", version: "1" });
    server.registerTool(
      "add_numbers",
      { inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } },
      (args) => {
        calls.push(args);
        return `${(args.a as number) + (args.b as number)}`;
      },
    );
    const handle = await listen({ connect: (t) => void server.connect(t) });
    try {
      await run(handle.url, {
        MCP_CONFORMANCE_SCENARIO: "tools_call",
        MCP_CONFORMANCE_PROTOCOL_VERSION: revision,
      });
      expect(calls).toEqual([{ a: 5, b: 3 }]);
    } finally {
      await server.close();
      await handle.close();
    }
  });

  it("fails when the scenario's tool is missing", async () => {
    const server = createServer({ name: "mock", version: "1" });
    server.registerTool("other", { description: "not add_numbers" }, () => "x");
    const handle = await listen({ connect: (t) => void server.connect(t) });
    try {
      await expect(
        run(handle.url, {
          MCP_CONFORMANCE_SCENARIO: "tools_call",
          MCP_CONFORMANCE_PROTOCOL_VERSION: "2026-07-28",
        }),
      ).rejects.toMatchObject({ code: -32602 });
    } finally {
      await server.close();
      await handle.close();
    }
  });
});
