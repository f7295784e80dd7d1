// Issue 25.1, the Redis half: a shared legacy session belongs to the identity that opened it, on every
// instance. Two handlers on real loopback ports share a real Redis (session store and event store); Bob,
// with his own valid token and Alice's Mcp-Session-Id, tries each instance.
import { createPeer, type Transport } from "@mcpkit/jsonrpc";
import type { StreamableHttpHandlerOptions } from "@mcpkit/transport-http";
import { listen } from "@mcpkit/transport-http/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createRedisEventStore,
  createRedisSessionStore,
  openRedis,
  type RedisConnection,
  type RedisSessionStore,
} from "../src/index.js";
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from "./redis.js";

const LEGACY = "2025-11-25";
const TOKENS: Record<string, { subject: string; clientId: string }> = {
  alice: { subject: "alice", clientId: "app" },
  bob: { subject: "bob", clientId: "app" },
};

function authenticate(request: Request): unknown {
  const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  const identity = token === undefined ? undefined : TOKENS[token];
  return identity ?? new Response("unauthorized", { status: 401 });
}

/** `echo`, and `ask`: asks the client (on its POST's stream) and returns the answer. */
const connect: StreamableHttpHandlerOptions["connect"] = async (transport: Transport, info) => {
  const shared = info.sharedSession;
  const peer = createPeer(transport, shared ? { requestIdPrefix: shared.requestIdPrefix } : {});
  peer.onRequest("initialize", () => ({
    protocolVersion: LEGACY,
    capabilities: {},
    serverInfo: { name: "r", version: "1" },
  }));
  peer.onRequest("echo", (params) => params);
  peer.onRequest("ask", (_params, ctx) => ctx.request("elicitation/create", { message: "Wire $100?" }));
  await peer.start();
};

function headers(
  token: string,
  sessionId?: string,
  more: Record<string, string> = {},
): Record<string, string> {
  const h: Record<string, string> = {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": LEGACY,
    ...more,
  };
  if (sessionId !== undefined) h["mcp-session-id"] = sessionId;
  return h;
}

async function post(url: string, token: string, sessionId: string | undefined, body: unknown) {
  const response = await fetch(url, {
    method: "POST",
    headers: headers(token, sessionId),
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    text: await response.text(),
    sessionId: response.headers.get("mcp-session-id"),
  };
}

/** Reads an SSE response until a message matches (the reader stays usable). */
async function until(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  match: (m: any) => boolean,
): Promise<any> {
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`The stream ended first: ${text}`);
    text += decoder.decode(value, { stream: true });
    for (const block of text.slice(0, text.lastIndexOf("\n\n")).split("\n\n")) {
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (data === undefined) continue;
      const message = JSON.parse(data);
      if (match(message)) return message;
    }
  }
}

describeRedis("[issue-25.1] a shared legacy session belongs to the identity that opened it (Redis)", () => {
  const prefix = testPrefix();
  let redis: RedisConnection;
  const stores: RedisSessionStore[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  let a = "";
  let b = "";

  beforeAll(async () => {
    redis = await openRedis(REDIS_URL);
    const urls: string[] = [];
    for (let i = 0; i < 2; i++) {
      const sessionStore = await createRedisSessionStore({ url: REDIS_URL, prefix });
      stores.push(sessionStore);
      const eventStore = createRedisEventStore({ client: redis, prefix });
      const http = await listen({ connect, authenticate, sessionStore, eventStore });
      closers.push(() => http.close());
      urls.push(`http://127.0.0.1:${http.port}/mcp`);
    }
    [a, b] = urls as [string, string];
  });

  afterAll(async () => {
    for (const close of closers) await close().catch(() => {});
    for (const store of stores) await store.close().catch(() => {});
    await dropPrefix(redis, prefix);
    await redis.close();
  });

  async function open(token: string): Promise<string> {
    const init = await post(a, token, undefined, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: token, version: "1" } },
    });
    expect(init.sessionId).toBeTruthy();
    const initialized = await post(a, token, init.sessionId!, {
      jsonrpc: "2.0",
      method: "notifications/initialized",
    });
    expect(initialized.status).toBe(202);
    return init.sessionId!;
  }

  it("records the owner in Redis and refuses Bob's POST on every instance with an unknown session's 404", async () => {
    const alice = await open("alice");
    expect(await redis.hGet(`${prefix}session:{${alice}}`, "o")).toBe(JSON.stringify(["alice", "app"]));
    const unknown = await post(b, "bob", "0".repeat(32), { jsonrpc: "2.0", id: 5, method: "echo" });
    for (const url of [a, b]) {
      const stolen = await post(url, "bob", alice, { jsonrpc: "2.0", id: 5, method: "echo" });
      expect({ status: stolen.status, text: stolen.text }).toEqual({
        status: unknown.status,
        text: unknown.text,
      });
    }
    expect(
      (await post(b, "alice", alice, { jsonrpc: "2.0", id: 6, method: "echo", params: { x: 1 } })).status,
    ).toBe(200);
  });

  it("refuses Bob's GET stream and Last-Event-ID replay on the other instance", async () => {
    const alice = await open("alice");
    const call = await post(a, "alice", alice, {
      jsonrpc: "2.0",
      id: 7,
      method: "echo",
      params: { secret: "s3" },
    });
    const ids = [...call.text.matchAll(/^id: (.*)$/gm)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(0);
    const get = (url: string, token: string, lastEventId?: string) =>
      fetch(url, {
        headers: headers(token, alice, lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
      });
    for (const lastEventId of [undefined, ids[0]]) {
      const response = await get(b, "bob", lastEventId);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("s3");
    }
    const own = await get(b, "alice", ids[0]);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain("s3");
  });

  it("drops Bob's answer to Alice's pending elicitation, POSTed to the other instance: her tool gets hers", async () => {
    const alice = await open("alice");
    const call = await fetch(a, {
      method: "POST",
      headers: headers("alice", alice),
      body: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "ask" }),
    });
    const reader = call.body!.getReader();
    const asked = await until(reader, (m) => m.method === "elicitation/create");
    const forged = await post(b, "bob", alice, {
      jsonrpc: "2.0",
      id: asked.id,
      result: { action: "accept", content: { from: "bob" } },
    });
    expect(forged.status).toBe(404);
    const answered = await post(b, "alice", alice, {
      jsonrpc: "2.0",
      id: asked.id,
      result: { action: "decline" },
    });
    expect(answered.status).toBe(202);
    expect((await until(reader, (m) => m.id === 8)).result).toEqual({ action: "decline" });
    await reader.cancel();
  });

  it("refuses Bob's DELETE on either instance: the session lives on", async () => {
    const alice = await open("alice");
    for (const url of [a, b]) {
      const response = await fetch(url, { method: "DELETE", headers: headers("bob", alice) });
      expect(response.status).toBe(404);
      await response.text();
    }
    expect(await redis.exists(`${prefix}session:{${alice}}`)).toBe(1);
    expect((await post(b, "alice", alice, { jsonrpc: "2.0", id: 9, method: "echo" })).status).toBe(200);
  });

  it("event ids cannot be forged from the stream id and Redis entry ids", async () => {
    const store = createRedisEventStore({ client: redis, prefix: `${prefix}forge:` });
    const first = await store.storeEvent("sess-0", { jsonrpc: "2.0", method: "a" });
    await store.storeEvent("sess-0", { jsonrpc: "2.0", method: "b" });
    expect(await store.streamIdOf(first)).toBe("sess-0");
    const entries = (await redis.xRange(`${prefix}forge:events:sess-0`, "-", "+")) ?? [];
    expect(entries).toHaveLength(2);
    // What an outsider can build: the stream id (it starts with the session id) and a Redis entry id.
    for (const entry of entries) {
      expect(await store.streamIdOf(`sess-0_${entry.id}`)).toBeUndefined();
      expect(await store.streamIdOf(`sess-0_${entry.id}_${"0".repeat(32)}`)).toBeUndefined();
    }
    const replayed: string[] = [];
    await store.replayEventsAfter(`sess-0_${entries[0]!.id}`, (id) => void replayed.push(id));
    expect(replayed).toEqual([]);
    // Another instance (a store with the same prefix) verifies the ids: the key is shared through Redis.
    const other = createRedisEventStore({ client: redis, prefix: `${prefix}forge:` });
    const seen: string[] = [];
    await other.replayEventsAfter(first, (id) => void seen.push(id));
    expect(seen).toHaveLength(1);
    expect(await other.streamIdOf(seen[0]!)).toBe("sess-0");
  });
});
