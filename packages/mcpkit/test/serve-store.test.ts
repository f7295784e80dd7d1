// serve(server, { store }): shared stores (any object of the right shape, as redisStore() returns) reach the
// server through useStores and the HTTP handler through listen(); serve closes the store after the server.
import { createInMemoryTaskStore, type NotificationBus, type NotificationEvent } from "@mcpkit/server";
import { createInMemoryEventStore, type EventStore } from "@mcpkit/transport-http";
import { describe, expect, it } from "vitest";
import { connect, createServer, type ServeStore, serve } from "../src/index.js";

/** A store of the right shape whose parts record their use. */
function fakeStore() {
  const events: string[] = [];
  const published: NotificationEvent[] = [];
  const order: string[] = [];
  let listening = () => false;
  const inner = createInMemoryEventStore();
  const eventStore: EventStore = {
    storeEvent(streamId, message) {
      events.push(streamId);
      return inner.storeEvent(streamId, message);
    },
    streamIdOf: (id) => inner.streamIdOf(id),
    replayEventsAfter: (id, send) => inner.replayEventsAfter(id, send),
    deleteStreams: (ids) => inner.deleteStreams?.(ids),
  };
  const bus: NotificationBus = {
    async publish(event) {
      published.push(event);
    },
    subscribe: () => () => {},
    async close() {},
  };
  const store: ServeStore & { closes: number } = {
    closes: 0,
    tasks: createInMemoryTaskStore(),
    bus,
    requestStateKey: ["shared-key"],
    eventStore,
    async close() {
      order.push(`store closed, http listening: ${listening()}`);
      store.closes++;
    },
  };
  return { store, events, published, order, watch: (fn: () => boolean) => (listening = fn) };
}

describe("serve({ store })", () => {
  it("hands tasks, bus and key ring to the server and the event store to the HTTP handler; closes the store after the server", async () => {
    const { store, events, published, order, watch } = fakeStore();
    const server = createServer({ name: "stored", version: "1.0.0" });
    server.registerResource("a://1", { name: "one" }, () => "x");
    server.registerTool("touch", {}, () => {
      server.notifyResourceUpdated("a://1");
      return "touched";
    });
    const running = await serve(server, {
      transport: "http",
      port: 0,
      block: false,
      store,
      onListening: () => {},
    });
    watch(() => running.server.listening);
    await using legacy = await connect(running.url, { versionNegotiation: "legacy" });
    expect((await legacy.callTool("touch", {})).content).toBe("touched");
    // The legacy reply went out as SSE events kept in the given store; the update went on the given bus.
    expect(events.length).toBeGreaterThan(0);
    expect(published).toMatchObject([{ type: "resourceUpdated", uri: "a://1" }]);
    // The server got the stores before it served: it refuses new ones now.
    expect(() => server.useStores({})).toThrow(/before the server serves anything/);
    await legacy.close();
    await running.close();
    await running.close();
    // Closed once, after the HTTP server stopped listening.
    expect(order).toEqual(["store closed, http listening: false"]);
    expect(store.closes).toBe(1);
    await server.close();
  });

  it("refuses a server without useStores, and one that already served", async () => {
    const { store } = fakeStore();
    await expect(serve({ connect: () => {} }, { transport: "http", port: 0, store })).rejects.toThrow(
      /needs a server with useStores\(\)/,
    );
    const server = createServer({ name: "busy", version: "1.0.0" });
    server.registerTool("noop", {}, () => "");
    const first = await serve(server, { transport: "http", port: 0, block: false, onListening: () => {} });
    await using client = await connect(first.url);
    await client.listTools();
    await expect(
      serve(server, { transport: "http", port: 0, block: false, store, onListening: () => {} }),
    ).rejects.toThrow(/before the server serves anything/);
    await client.close();
    await first.close();
    await server.close();
  });
});
