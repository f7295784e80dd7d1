// Server.useStores: shared stores handed to a server that already exists, before it serves.
import { describe, expect, it } from "vitest";
import {
  createInMemoryTaskStore,
  createServer,
  type NotificationBus,
  type NotificationEvent,
  type StoredTask,
  type TaskStore,
} from "../src/index.js";
import { connectClient, modernCall } from "./helpers.js";

/** A bus recording what it is given, and letting a test raise events "from another instance". */
function recordingBus() {
  const handlers = new Set<(event: NotificationEvent) => void>();
  const published: NotificationEvent[] = [];
  const bus: NotificationBus = {
    async publish(event) {
      published.push(event);
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {},
  };
  return { bus, published, handlers };
}

/** A task store that counts the records created through it. */
function countingTaskStore(): TaskStore & { created: StoredTask[] } {
  const inner = createInMemoryTaskStore();
  const created: StoredTask[] = [];
  return {
    created,
    async create(task) {
      created.push(task);
      await inner.create(task);
    },
    get: (id) => inner.get(id),
    update: (task) => inner.update(task),
  };
}

const caps = { extensions: { "io.modelcontextprotocol/tasks": {} }, elicitation: {} };
const schema = { type: "object" as const, properties: {} };

describe("Server.useStores", () => {
  it("takes a task store, a bus and a key ring before the first connection, and uses them", async () => {
    const tasks = countingTaskStore();
    const { bus, published, handlers } = recordingBus();
    const server = createServer({ name: "s", version: "1" });
    server.registerTool("slow", { taskSupport: "required" }, () => "done");
    server.registerTool(
      "ask",
      {},
      async (_a, ctx) => (await ctx.elicit({ message: "ok?", requestedSchema: schema })).action,
    );
    server.registerResource("a://1", { name: "one" }, () => "x");
    server.useStores({ tasks, bus, requestStateKey: ["current", "previous"] });
    expect(handlers.size).toBe(1);

    const created = await modernCall(
      server,
      "tools/call",
      { name: "slow", arguments: {} },
      { capabilities: caps },
    );
    expect(created.response.result.resultType).toBe("task");
    expect(tasks.created.map((t) => t.taskId)).toEqual([created.response.result.taskId]);

    server.notifyResourceUpdated("a://1");
    expect(published).toMatchObject([{ type: "resourceUpdated", uri: "a://1" }]);

    // A round sealed here opens on another server given the same ring (its key first or not).
    const first = await modernCall(
      server,
      "tools/call",
      { name: "ask", arguments: {} },
      { capabilities: caps },
    );
    const other = createServer({ name: "s", version: "1", requestStateKey: ["previous", "current"] });
    other.registerTool(
      "ask",
      {},
      async (_a, ctx) => (await ctx.elicit({ message: "ok?", requestedSchema: schema })).action,
    );
    const retry = await modernCall(
      other,
      "tools/call",
      {
        name: "ask",
        arguments: {},
        inputResponses: { "elicit-0": { action: "accept" } },
        requestState: first.response.result.requestState,
      },
      { capabilities: caps },
    );
    expect(retry.response.result.content).toEqual([{ type: "text", text: "accept" }]);
    await server.close();
    await other.close();
    // close() unsubscribes from the bus it was given, and does not close it.
    expect(handlers.size).toBe(0);
  });

  it("replaces a bus given in the options: the old one is unsubscribed", async () => {
    const old = recordingBus();
    const next = recordingBus();
    const server = createServer({ name: "s", version: "1", bus: old.bus });
    expect(old.handlers.size).toBe(1);
    server.useStores({ bus: next.bus });
    expect(old.handlers.size).toBe(0);
    expect(next.handlers.size).toBe(1);
    server.notifyListChanged("tools");
    await Promise.resolve();
    expect(old.published).toEqual([]);
    expect(next.published).toMatchObject([{ type: "listChanged", kind: "tools" }]);
    await server.close();
  });

  it("keeps what an undefined entry does not replace, and does not offer tasks by itself", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.useStores({ tasks: countingTaskStore(), bus: undefined, requestStateKey: undefined });
    const client = await connectClient(server);
    const init = await client.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    });
    expect(JSON.stringify(init.capabilities)).not.toContain("io.modelcontextprotocol/tasks");
    await client.close();
    await server.close();
  });

  it("is refused once the server made a connection, and for an empty key ring", async () => {
    const server = createServer({ name: "s", version: "1" });
    expect(() => server.useStores({ requestStateKey: [] })).toThrow(RangeError);
    const client = await connectClient(server);
    expect(() => server.useStores({ tasks: countingTaskStore() })).toThrow(
      /must be called before the server serves anything/,
    );
    await client.close();
    await server.close();
    expect(() => server.useStores({})).toThrow(/before the server serves anything/);
  });
});
