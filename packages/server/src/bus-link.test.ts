import { describe, expect, it } from "vitest";
import { connectClient } from "../test/helpers.js";
import { fakeConn, fakeRctx, makeCore, modernCall } from "../test/unit-kit.js";
import { listen } from "./listen.js";
import { isNotificationEvent, type NotificationBus, type NotificationEvent } from "./notification-bus.js";
import { createServer } from "./server.js";
import type { StoredTask } from "./tasks.js";

/**
 * A bus shared by several "instances" in one process: every publish reaches every subscriber, the
 * publisher's own included (as Redis pub/sub does), as a JSON copy.
 */
function sharedBus() {
  const handlers = new Set<(event: NotificationEvent) => void>();
  const published: NotificationEvent[] = [];
  const bus = (): NotificationBus => ({
    async publish(event) {
      published.push(event);
      for (const handler of [...handlers]) handler(JSON.parse(JSON.stringify(event)));
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {},
  });
  return { bus, published, handlers };
}

/** A listen stream opened on `core`, recording what it is sent. */
async function openListen(
  core: ReturnType<typeof makeCore>,
  notifications: Record<string, unknown>,
  authInfo?: unknown,
) {
  const rctx = fakeRctx("subscriptions/listen", 1, authInfo === undefined ? undefined : { authInfo });
  const caps = { extensions: { "io.modelcontextprotocol/tasks": {} } };
  void listen(core, modernCall("subscriptions/listen", caps, rctx), { notifications }).catch(() => {});
  await Promise.resolve();
  const methods = () => rctx.notified.slice(1).map((n) => n.method);
  return { rctx, methods };
}

describe("notification bus link", () => {
  it("a resource update raised on one instance reaches the listeners and subscribed sessions of every instance, once each", async () => {
    const shared = sharedBus();
    const a = makeCore({ bus: shared.bus() });
    const b = makeCore({ bus: shared.bus() });
    for (const core of [a, b]) core.registry.addResource("a://1", { name: "one" }, () => "x");
    const onA = await openListen(a, { resourceSubscriptions: ["a://1"] });
    const onB = await openListen(b, { resourceSubscriptions: ["a://1"] });
    const legacyOnB = fakeConn({ subscriptions: new Set(["a://1"]) });
    const otherOnB = fakeConn({ subscriptions: new Set(["a://2"]) });
    b.connections.add(legacyOnB);
    b.connections.add(otherOnB);
    a.bus!.resourceUpdated("a://1");
    expect(onB.methods()).toEqual(["notifications/resources/updated"]);
    expect(legacyOnB.sent).toEqual([{ method: "notifications/resources/updated", params: { uri: "a://1" } }]);
    expect(otherOnB.sent).toEqual([]);
    // A's own echo is skipped: A tells its clients directly (see the createServer test below).
    expect(onA.methods()).toEqual([]);
    expect(shared.published.filter((e) => e.type === "resourceUpdated")).toEqual([
      { type: "resourceUpdated", origin: a.bus!.origin, uri: "a://1" },
    ]);
  });

  it("Server.notifyResourceUpdated tells this instance's clients directly and the others through the bus", async () => {
    const shared = sharedBus();
    const a = createServer({ name: "a", version: "1", bus: shared.bus() });
    const b = makeCore({ bus: shared.bus() });
    b.registry.addResource("a://1", { name: "one" }, () => "x");
    const onB = await openListen(b, { resourceSubscriptions: ["a://1"] });
    a.registerResource("a://1", { name: "one" }, () => "x");
    const client = await connectClient(a);
    await client.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    });
    await client.peer.notify("notifications/initialized");
    await client.request("resources/subscribe", { uri: "a://1" });
    a.notifyResourceUpdated("a://1");
    expect(await client.next("notifications/resources/updated")).toEqual({ uri: "a://1" });
    expect(onB.methods()).toEqual(["notifications/resources/updated"]);
    expect(shared.published.filter((e) => e.type === "resourceUpdated")).toHaveLength(1);
    await a.close();
    // Closed: no longer subscribed (B still is); the bus itself stays open.
    expect(shared.handlers.size).toBe(1);
  });

  it("a burst of list changes is published once per kind, and told once on every instance", async () => {
    const shared = sharedBus();
    const a = makeCore({ bus: shared.bus() });
    const b = makeCore({ bus: shared.bus() });
    for (const core of [a, b]) core.registry.addTool("seed", {}, () => "ok");
    await Promise.resolve();
    shared.published.length = 0;
    const onA = await openListen(a, { toolsListChanged: true });
    const onB = await openListen(b, { toolsListChanged: true });
    const legacyOnB = fakeConn({ initialized: true });
    b.connections.add(legacyOnB);
    a.registry.addTool("one", {}, () => "1");
    a.registry.addTool("two", {}, () => "2");
    b.registry.addTool("three", {}, () => "3");
    await Promise.resolve();
    await Promise.resolve();
    expect(shared.published.map((e) => [e.type, (e as { kind?: string }).kind])).toEqual([
      ["listChanged", "tools"],
      ["listChanged", "tools"],
    ]);
    // B's own change and A's, which arrived before B flushed, are told once; A had flushed when B's
    // arrived, so A tells its clients of that later change again.
    expect(onB.methods()).toEqual(["notifications/tools/list_changed"]);
    expect(onA.methods()).toEqual(["notifications/tools/list_changed", "notifications/tools/list_changed"]);
    expect(legacyOnB.sent.map((n) => n.method)).toEqual(["notifications/tools/list_changed"]);
  });

  it("a task status reaches the owner's listen streams on other instances only", async () => {
    const shared = sharedBus();
    const a = makeCore({ bus: shared.bus(), tasks: {} });
    const b = makeCore({ bus: shared.bus(), tasks: {} });
    const alice = await openListen(b, { taskIds: ["t1"] }, { sub: "alice" });
    const bob = await openListen(b, { taskIds: ["t1"] }, { sub: "bob" });
    a.bus!.taskStatus({ taskId: "t1", status: "completed", createdAt: "", ttlMs: null }, "sub:alice");
    expect(alice.rctx.notified[1]).toMatchObject({
      method: "notifications/tasks",
      params: { taskId: "t1", status: "completed" },
    });
    expect(bob.methods()).toEqual([]);
    expect(shared.published[0]).toMatchObject({ type: "taskStatus", owner: "sub:alice" });
  });

  it("the task manager publishes every status change it makes", async () => {
    const shared = sharedBus();
    const a = makeCore({ bus: shared.bus(), tasks: {} });
    const b = makeCore({ bus: shared.bus(), tasks: {} });
    const { task } = await a.taskManager.create("sub:alice");
    const onB = await openListen(b, { taskIds: [task.taskId] }, { sub: "alice" });
    await a.taskManager.finish(task.taskId, { result: { content: [] } });
    expect(onB.rctx.notified[1]).toMatchObject({
      method: "notifications/tasks",
      params: { taskId: task.taskId, status: "completed", result: { content: [] } },
    });
    expect(shared.published.at(-1)).toMatchObject({ type: "taskStatus", owner: "sub:alice" });
    expect((shared.published.at(-1) as unknown as { task: StoredTask }).task.owner).toBeUndefined();
  });

  it("a failed publish is logged and this instance's clients are told all the same", async () => {
    const bus: NotificationBus = {
      publish: () => Promise.reject(new Error("Redis is down")),
      subscribe: () => () => {},
      close: async () => {},
    };
    const a = makeCore({ bus });
    a.registry.addResource("a://1", { name: "one" }, () => "x");
    const onA = await openListen(a, { resourceSubscriptions: ["a://1"] });
    a.logged.length = 0;
    a.bus!.resourceUpdated("a://1");
    await Promise.resolve();
    await Promise.resolve();
    expect(a.logged).toHaveLength(1);
    expect(a.logged[0]![0]).toBe(
      "Notification bus could not publish a resourceUpdated event; clients of other instances were not told",
    );
    expect((a.logged[0]![1] as Error).message).toBe("Redis is down");
    expect(onA.methods()).toEqual([]);
  });

  it("without a bus nothing is made and a change nobody here could be told is dropped, as before", async () => {
    const core = makeCore();
    expect(core.bus).toBeUndefined();
    core.registry.addTool("t", {}, () => "ok");
    const late = fakeConn({ initialized: true });
    core.connections.add(late);
    await Promise.resolve();
    expect(late.sent).toEqual([]);
  });

  it("with a bus a change is published even when nobody here could be told", async () => {
    const shared = sharedBus();
    const a = makeCore({ bus: shared.bus() });
    a.registry.addPrompt("p", {}, () => "hi");
    await Promise.resolve();
    expect(shared.published).toEqual([{ type: "listChanged", origin: a.bus!.origin, kind: "prompts" }]);
  });
});

describe("isNotificationEvent", () => {
  it("accepts the three well-formed events and refuses anything else", () => {
    const origin = "o";
    expect(isNotificationEvent({ type: "listChanged", origin, kind: "prompts" })).toBe(true);
    expect(isNotificationEvent({ type: "resourceUpdated", origin, uri: "a://1", extra: 1 })).toBe(true);
    const task = { taskId: "t", status: "working" };
    expect(isNotificationEvent({ type: "taskStatus", origin, task })).toBe(true);
    expect(isNotificationEvent({ type: "taskStatus", origin, task, owner: "sub:x" })).toBe(true);
    for (const bad of [
      null,
      [],
      "x",
      { type: "listChanged", kind: "tools" },
      { type: "listChanged", origin, kind: "files" },
      { type: "resourceUpdated", origin, uri: 1 },
      { type: "taskStatus", origin, task: { taskId: "t" } },
      { type: "taskStatus", origin, task, owner: 5 },
      { type: "somethingNew", origin },
    ]) {
      expect(isNotificationEvent(bad)).toBe(false);
    }
  });
});
