import { format } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer, type Server } from "../src/index.js";
import { modernCall } from "./helpers.js";

const servers: Server[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** What the default logger printed for a tool whose structuredContent fails `outputSchema`. */
async function printed(outputSchema: Record<string, unknown>, structuredContent: unknown): Promise<string[]> {
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(format(...args)));
  const server = createServer({ name: "s", version: "1" });
  servers.push(server);
  server.registerTool("t", { outputSchema } as never, () => ({ content: [], structuredContent }) as never);
  const { response } = await modernCall(server, "tools/call", { name: "t", arguments: {} });
  expect(response.error).toEqual({ code: -32603, message: "Internal error" });
  return lines;
}

describe("the output-schema failure message (default logger)", () => {
  it("oneOf: one line naming every failure, without a stray ' undefined'", async () => {
    const lines = await printed(
      { type: "object", properties: { pick: { oneOf: [{ type: "integer" }, { type: "string" }] } } },
      { pick: 1.5 },
    );
    expect(lines).toEqual([
      "[mcpkit/server] Tool t returned structuredContent that fails its outputSchema: " +
        "structuredContent/pick must be integer; structuredContent/pick must be string; " +
        "structuredContent/pick must match exactly one schema in oneOf",
    ]);
  });

  it("a subset schema too (required): the line ends with the validator's message", async () => {
    const lines = await printed({ type: "object", required: ["a"] }, {});
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/structuredContent must have required property 'a'$/);
  });
});
