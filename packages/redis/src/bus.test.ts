import type { NotificationEvent } from "@mcpkit/server";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeRedis, REDIS_URL, testPrefix } from "../test/redis.js";
import { createRedisBus, type RedisBus } from "./bus.js";
import { openRedis, type RedisConnection } from "./connection.js";

const event = (uri: string): NotificationEvent => ({ type: "resourceUpdated", origin: "test", uri });

/** The ids of the connections named `name` in CLIENT LIST. */
async function connectionsNamed(admin: RedisConnection, name: string): Promise<string[]> {
  const list = String(await admin.sendCommand(["CLIENT", "LIST"]));
  return list
    .split("\n")
    .filter((l) => l.includes(` name=${name} `))
    .map((l) => l.match(/^id=(\d+)/)![1]!);
}

describeRedis("createRedisBus", () => {
  let admin: RedisConnection;
  const opened: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    admin = await openRedis(REDIS_URL);
  });

  afterAll(async () => {
    for (const thing of opened.reverse()) await thing.close();
    await admin.close();
  });

  async function bus(prefix: string, onError: (error: Error) => void = () => {}) {
    const client = await openRedis(REDIS_URL);
    const made = await createRedisBus({ client, prefix, onError });
    opened.push(client, made);
    return { client, bus: made };
  }

  function collect(b: RedisBus) {
    const got: NotificationEvent[] = [];
    const unsubscribe = b.subscribe((e) => got.push(e));
    return { got, unsubscribe };
  }

  it("hands every event to every subscriber sharing the prefix, the publisher's own included, in order", async () => {
    const prefix = testPrefix();
    const a = await bus(prefix);
    const b = await bus(prefix);
    const elsewhere = await bus(testPrefix());
    expect(a.bus.channel).toBe(`${prefix}notifications`);
    const onA = collect(a.bus);
    const onB = collect(b.bus);
    const onElsewhere = collect(elsewhere.bus);
    const task: NotificationEvent = {
      type: "taskStatus",
      origin: "a",
      task: { taskId: "t", status: "completed", result: { content: [] } },
      owner: "sub:x",
    };
    const sent = [event("a://1"), { type: "listChanged", origin: "a", kind: "tools" } as const, task];
    for (const e of sent) void a.bus.publish(e);
    await vi.waitFor(() => expect(onB.got).toHaveLength(3));
    expect(onB.got).toEqual(sent);
    await vi.waitFor(() => expect(onA.got).toEqual(sent));
    // Published on the other prefix after the rest: once it arrived, nothing else would have.
    await elsewhere.bus.publish(event("z://1"));
    await vi.waitFor(() => expect(onElsewhere.got).toEqual([event("z://1")]));
    expect(onB.got).toHaveLength(3);
  });

  it("reports and drops malformed messages, never handing them over, and goes on", async () => {
    const prefix = testPrefix();
    const errors: Error[] = [];
    const b = await bus(prefix, (error) => errors.push(error));
    const onB = collect(b.bus);
    const handlerFailure = b.bus.subscribe(() => {
      throw new Error("subscriber bug");
    });
    await admin.publish(`${prefix}notifications`, "not json{");
    await admin.publish(`${prefix}notifications`, JSON.stringify({ type: "resourceUpdated", uri: 1 }));
    await admin.publish(`${prefix}notifications`, JSON.stringify(event("a://ok")));
    await vi.waitFor(() => expect(onB.got).toEqual([event("a://ok")]));
    handlerFailure();
    expect(errors.map((e) => e.message)).toEqual([
      `Ignored a message on ${prefix}notifications that is not JSON`,
      `Ignored a message on ${prefix}notifications that is not a notification event: {"type":"resourceUpdated","uri":1}`,
      `A subscriber of ${prefix}notifications threw`,
    ]);
  });

  it("resubscribes by itself when its connection drops, reporting the loss once", async () => {
    const prefix = testPrefix();
    const errors: Error[] = [];
    const a = await bus(prefix);
    const b = await bus(prefix, (error) => errors.push(error));
    const onB = collect(b.bus);
    // Both buses' subscribers have this name; kill them all, as a Redis restart would.
    const ids = await connectionsNamed(admin, `${prefix}bus`);
    expect(ids).toHaveLength(2);
    for (const id of ids) await admin.sendCommand(["CLIENT", "KILL", "ID", id]);
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0));
    expect(errors[0]!.message).toBe(
      `Lost the subscription to ${prefix}notifications; events of other instances are missed until Redis is back`,
    );
    // Fire and forget: keep publishing until one arrives (bounded), as after a real outage.
    await vi.waitFor(
      async () => {
        await a.bus.publish(event("a://back"));
        expect(onB.got.length).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(onB.got[0]).toEqual(event("a://back"));
    expect(errors).toHaveLength(1);
  });

  it("fails a publish with an error naming the channel while Redis is unreachable", async () => {
    const prefix = testPrefix();
    const a = await bus(prefix);
    const id = await a.client.clientId();
    // (events.once would reject on the "error" the drop emits first.)
    const dropped = new Promise((resolve) => a.client.once("reconnecting", resolve));
    await admin.sendCommand(["CLIENT", "KILL", "ID", String(id)]);
    await dropped;
    const failure = await a.bus.publish(event("a://1")).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(new RegExp(`^Cannot publish to ${prefix}notifications: `));
  });

  it("after close hands nothing over and its connection is gone; the client stays open", async () => {
    const prefix = testPrefix();
    const a = await bus(prefix);
    const b = await bus(prefix);
    const onA = collect(a.bus);
    const onB = collect(b.bus);
    await b.bus.close();
    await b.bus.close();
    await vi.waitFor(async () => {
      expect(await connectionsNamed(admin, `${prefix}bus`)).toHaveLength(1);
    });
    await a.bus.publish(event("a://1"));
    await vi.waitFor(() => expect(onA.got).toEqual([event("a://1")]));
    expect(onB.got).toEqual([]);
    expect(await b.client.ping()).toBe("PONG");
  });
});
