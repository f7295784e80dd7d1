// Small gaps a newcomer meets: the discovery document, the last lists read-only, handlers set after
// connecting, outputSchema checks that warn or are skipped, a task handle at once, and a typed
// structured result through any Standard Schema.
import { createInMemoryPair, type Transport } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import {
  type Client,
  createClient,
  OutputValidationError,
  type StandardSchemaV1,
  type ToolResult,
} from "../src/index.js";
import { discoverHandler, legacyHandlers, type Responder, responder } from "./helpers.js";

const open: Array<Client | Responder | { close(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

/** A modern server (a fixture, not ours: ours checks its own output) whose "broken" tool breaks its outputSchema. */
async function brokenServer(extra: Partial<Parameters<typeof createClient>[0]> = {}): Promise<Client> {
  const schema = { type: "object", properties: { temp: { type: "number" } }, required: ["temp"] };
  const r = await responder({
    "server/discover": discoverHandler(),
    "tools/list": () => ({
      resultType: "complete",
      tools: [{ name: "broken", inputSchema: { type: "object" }, outputSchema: schema }],
    }),
    "tools/call": () => ({ resultType: "complete", content: [], structuredContent: { temp: "warm" } }),
  });
  open.push(r);
  const c = createClient({ name: "t", version: "1", ...extra });
  open.push(c);
  await c.connect(r.transport);
  return c;
}

/** A tiny Standard Schema for `{ temp: number }`, as a schema library would give. */
const Weather: StandardSchemaV1<unknown, { temp: number }> = {
  "~standard": {
    version: 1,
    vendor: "test",
    validate: (value) =>
      typeof value === "object" && value !== null && typeof (value as { temp?: unknown }).temp === "number"
        ? { value: value as { temp: number } }
        : { issues: [{ message: "Expected a number", path: ["temp"] }] },
  },
};

async function ourServer(
  era: "auto" | "legacy",
  extra: Partial<Parameters<typeof createClient>[0]> = {},
): Promise<Client> {
  const server = createServer({ name: "weather", version: "1.0.0", instructions: "Ask me" });
  server.registerTool(
    "forecast",
    { description: "d", outputSchema: { type: "object", properties: { temp: { type: "number" } } } },
    () => ({ temp: 21 }),
  );
  server.registerTool("ask", {}, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "Name?",
      requestedSchema: { type: "object", properties: {} },
    });
    return `answer: ${answer.action}`;
  });
  server.registerPrompt("brief", {}, () => "Brief");
  const [clientEnd, serverEnd] = createInMemoryPair();
  await server.connect(serverEnd as Transport);
  open.push(server);
  const client = createClient({ name: "t", version: "1", versionNegotiation: era, ...extra });
  open.push(client);
  await client.connect(clientEnd);
  return client;
}

describe("client.discovery", () => {
  it("keeps the whole server/discover result of a modern session; none in the legacy era", async () => {
    const modern = await ourServer("auto");
    expect(modern.discovery).toMatchObject({
      resultType: "complete",
      supportedVersions: expect.arrayContaining(["2026-07-28"]),
      instructions: "Ask me",
      capabilities: { tools: expect.any(Object) },
    });
    const legacy = await ourServer("legacy");
    expect(legacy.discovery).toBeUndefined();
  });
});

describe("client.tools and the other lists, read-only", () => {
  it("are undefined before the first list, then the last list, with the stale flags", async () => {
    const r = await responder({
      ...legacyHandlers(),
      "tools/list": () => ({ tools: [{ name: "a", inputSchema: { type: "object" } }] }),
      "prompts/list": () => ({ prompts: [{ name: "p" }] }),
    });
    open.push(r);
    const c = createClient({ name: "t", version: "1", versionNegotiation: "legacy" });
    open.push(c);
    await c.connect(r.transport);
    expect(c.tools).toBeUndefined();
    expect(c.prompts).toBeUndefined();
    expect(c.resources).toBeUndefined();
    expect(c.resourceTemplates).toBeUndefined();
    await c.listTools();
    await c.listPrompts();
    expect(c.tools?.map((t) => t.name)).toEqual(["a"]);
    expect(c.prompts?.map((p) => p.name)).toEqual(["p"]);
    expectTypeOf(c.tools).toEqualTypeOf<readonly import("@mcpkit/protocol").Tool[] | undefined>();
    await r.peer.notify("notifications/resources/list_changed");
    await r.peer.notify("notifications/tools/list_changed");
    await r.peer.request("ping").catch(() => {});
    expect(c.toolsStale).toBe(true);
    expect(c.resourceTemplatesStale).toBe(true);
    expect(c.tools?.map((t) => t.name)).toEqual(["a"]);
  });
});

describe("setHandlers after connecting", () => {
  it("sets and replaces a handler for a declared capability, in both eras; declared capabilities stay", async () => {
    for (const era of ["auto", "legacy"] as const) {
      const c = await ourServer(era, { capabilities: { elicitation: {} } });
      c.setHandlers({ elicitation: () => ({ action: "decline" }) });
      expect((await c.callTool("ask")).content).toBe("answer: decline");
      c.setHandlers({ elicitation: () => ({ action: "cancel" }) });
      expect((await c.callTool("ask")).content).toBe("answer: cancel");
    }
  });

  it("refuses a handler for a capability that was not declared, naming it", async () => {
    const c = createClient({ name: "t", version: "1" });
    expect(() => c.setHandlers({ sampling: () => ({}) as never })).toThrow(
      "setHandlers: sampling was not declared at createClient(), so no server will ask for it; pass handlers.sampling or capabilities.sampling to createClient()",
    );
  });
});

describe("outputValidation", () => {
  it("error (default) throws; warn reports to onError and returns; off skips the check", async () => {
    const errors: Error[] = [];
    const c = await brokenServer({ onError: (e) => errors.push(e) });
    await c.listTools();
    await expect(c.callTool("broken")).rejects.toBeInstanceOf(OutputValidationError);
    const warned = await c.callTool("broken", {}, { outputValidation: "warn" });
    expect(warned.structured).toEqual({ temp: "warm" });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(OutputValidationError);
    expect((await c.callTool("broken", {}, { outputValidation: "off" })).structured).toEqual({
      temp: "warm",
    });
    expect(errors).toHaveLength(1);

    const lenient = await brokenServer({ outputValidation: "off" });
    await lenient.listTools();
    expect((await lenient.callTool("broken")).structured).toEqual({ temp: "warm" });
  });
});

describe("callTool(name, args, { schema })", () => {
  it("parses and types structured with any Standard Schema, and fails clearly on a mismatch", async () => {
    const c = await ourServer("auto", { outputValidation: "off" });
    const result = await c.callTool("forecast", {}, { schema: Weather });
    expectTypeOf(result).toEqualTypeOf<ToolResult<{ temp: number }>>();
    expect(result.structured?.temp).toBe(21);
    const broken = await brokenServer({ outputValidation: "off" });
    const error = await broken.callTool("broken", {}, { schema: Weather }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputValidationError);
    expect((error as Error).message).toBe(
      'Tool "broken" returned structuredContent that does not match the schema given to callTool: temp: Expected a number',
    );
    expect((error as OutputValidationError).errors).toEqual([
      { instancePath: "/temp", message: "Expected a number" },
    ]);
  });
});

describe("startTool: the task handle at once", () => {
  const task = (status: string, extra: Record<string, unknown> = {}) => ({
    taskId: "t1",
    status,
    createdAt: "2026-01-01T00:00:00Z",
    lastUpdatedAt: "2026-01-01T00:00:00Z",
    ttlMs: 60_000,
    pollIntervalMs: 10,
    ...extra,
  });

  it("returns the task id before the task ends; result() awaits it; cancel() cancels it", async () => {
    let gets = 0;
    const r = await responder({
      "server/discover": discoverHandler(),
      "tools/call": () => ({ resultType: "task", ...task("working") }),
      "tasks/get": () => {
        gets++;
        return {
          resultType: "complete",
          ...task("completed", { result: { content: [{ type: "text", text: "done" }] } }),
        };
      },
      "tasks/cancel": () => ({ resultType: "complete" }),
    });
    open.push(r);
    const c = createClient({ name: "t", version: "1", tasks: true });
    open.push(c);
    await c.connect(r.transport);
    const handle = await c.startTool("slow", { n: 1 });
    expect(handle.taskId).toBe("t1");
    expect(gets).toBe(0);
    expect((await handle.result()).content).toBe("done");
    await handle.cancel();
    expect(r.requests("tasks/cancel")[0]!.params.taskId).toBe("t1");
  });

  it("gives a handle without taskId when the server answers at once", async () => {
    const c = await ourServer("auto", { tasks: true });
    const handle = await c.startTool("forecast");
    expect(handle.taskId).toBeUndefined();
    expect((await handle.result()).structured).toEqual({ temp: 21 });
  });
});
