// Issue 25.1: a legacy session belongs to the identity that opened it. Bob, with his own valid token and
// Alice's Mcp-Session-Id, tries everything the session id alone used to allow, over real loopback HTTP.
import { createPeer, type Transport } from "@mcpkit/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { createInMemoryEventStore, type StreamableHttpHandlerOptions } from "../src/index.js";
import { listen } from "../src/node.js";
import { LEGACY, sseMessages } from "./support.js";

const TOKENS: Record<string, { subject: string; clientId: string }> = {
  alice: { subject: "alice", clientId: "app" },
  bob: { subject: "bob", clientId: "app" },
  "alice-other-client": { subject: "alice", clientId: "other" },
};

/** Maps `Authorization: Bearer <name>` to an identity, as `createProtectedResource().authenticate` does. */
function authenticate(request: Request): unknown {
  const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  const identity = token === undefined ? undefined : TOKENS[token];
  return identity ?? new Response("unauthorized", { status: 401 });
}

/**
 * The app: `echo`, and `ask`, a tool that asks the client (an elicitation, related to its POST, so it
 * goes out on that POST's SSE stream) and returns what the client answered.
 */
function app(): StreamableHttpHandlerOptions["connect"] {
  return async (transport: Transport) => {
    const peer = createPeer(transport);
    peer.onRequest("initialize", () => ({
      protocolVersion: LEGACY,
      capabilities: {},
      serverInfo: { name: "bound", version: "1" },
    }));
    peer.onRequest("echo", (params) => params);
    peer.onRequest("ask", async (_params, ctx) =>
      ctx.request("elicitation/create", { message: "Wire $100?" }),
    );
    await peer.start();
  };
}

let cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
  cleanups = [];
});

async function server(extra: Partial<StreamableHttpHandlerOptions> = {}) {
  const http = await listen({ connect: app(), authenticate, ...extra });
  cleanups.push(() => http.close());
  return `http://127.0.0.1:${http.port}/mcp`;
}

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

async function open(url: string, token: string): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: headers(token),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: token, version: "1" } },
    }),
  });
  await response.text();
  const id = response.headers.get("mcp-session-id");
  if (id === null) throw new Error(`initialize failed: ${response.status}`);
  await post(url, token, id, { jsonrpc: "2.0", method: "notifications/initialized" });
  return id;
}

async function post(url: string, token: string, sessionId: string, body: unknown) {
  const response = await fetch(url, {
    method: "POST",
    headers: headers(token, sessionId),
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** Reads an SSE response until `match` finds a message; the reader is kept for more. */
async function until(reader: ReadableStreamDefaultReader<Uint8Array>, match: (m: any) => boolean) {
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`The stream ended first: ${text}`);
    text += decoder.decode(value, { stream: true });
    const complete = text.slice(0, text.lastIndexOf("\n\n") + 2);
    const found = sseMessages(complete).find(match);
    if (found) return { found, ids: [...complete.matchAll(/^id: (.*)$/gm)].map((m) => m[1]!) };
  }
}

/** What a request with a session id nobody ever issued gets: the reference for "as if it did not exist". */
async function unknownSession(url: string) {
  return post(url, "bob", "0".repeat(32), { jsonrpc: "2.0", id: 5, method: "echo", params: {} });
}

describe("[issue-25.1] a legacy session belongs to the identity that opened it (in memory)", () => {
  it("Bob's POST in Alice's session gets the 404 of an unknown session; Alice's own goes on", async () => {
    const url = await server();
    const alice = await open(url, "alice");
    const stolen = await post(url, "bob", alice, { jsonrpc: "2.0", id: 5, method: "echo", params: {} });
    expect(stolen).toEqual(await unknownSession(url));
    expect(stolen.status).toBe(404);
    // The same subject through another client is another identity too.
    const otherClient = await post(url, "alice-other-client", alice, {
      jsonrpc: "2.0",
      id: 6,
      method: "echo",
    });
    expect(otherClient.status).toBe(404);
    const own = await post(url, "alice", alice, { jsonrpc: "2.0", id: 7, method: "echo", params: { a: 1 } });
    expect(own.status).toBe(200);
    expect(own.text).toContain('"a":1');
  });

  it("Bob cannot open Alice's GET stream nor replay her events with Last-Event-ID", async () => {
    const url = await server();
    const alice = await open(url, "alice");
    // Alice's tool call leaves events in the event store; the SSE reply gives her their ids.
    const call = await post(url, "alice", alice, {
      jsonrpc: "2.0",
      id: 9,
      method: "echo",
      params: { secret: "s3" },
    });
    const ids = [...call.text.matchAll(/^id: (.*)$/gm)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(0);
    const get = (token: string, lastEventId?: string) =>
      fetch(url, {
        headers: headers(token, alice, lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
      });
    const stream = await get("bob");
    expect(stream.status).toBe(404);
    await stream.text();
    const replay = await get("bob", ids[0]);
    expect(replay.status).toBe(404);
    expect(await replay.text()).not.toContain("s3");
    // Alice herself resumes (a finished stream: the replay ends after what she missed).
    const own = await get("alice", ids[0]);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain("s3");
  });

  it("Bob cannot answer the elicitation pending in Alice's session: her tool gets her answer", async () => {
    const url = await server();
    const alice = await open(url, "alice");
    const call = await fetch(url, {
      method: "POST",
      headers: headers("alice", alice),
      body: JSON.stringify({ jsonrpc: "2.0", id: 11, method: "ask" }),
    });
    const reader = call.body!.getReader();
    const { found: asked } = await until(reader, (m) => m.method === "elicitation/create");
    const forged = await post(url, "bob", alice, {
      jsonrpc: "2.0",
      id: asked.id,
      result: { action: "accept", content: { from: "bob" } },
    });
    expect(forged.status).toBe(404);
    const answered = await post(url, "alice", alice, {
      jsonrpc: "2.0",
      id: asked.id,
      result: { action: "decline" },
    });
    expect(answered.status).toBe(202);
    const { found: result } = await until(reader, (m) => m.id === 11);
    expect(result.result).toEqual({ action: "decline" });
    await reader.cancel();
  });

  it("Bob's DELETE of Alice's session gets 404 and her session lives on", async () => {
    const url = await server();
    const alice = await open(url, "alice");
    const ended = await fetch(url, { method: "DELETE", headers: headers("bob", alice) });
    expect(ended.status).toBe(404);
    await ended.text();
    const own = await post(url, "alice", alice, { jsonrpc: "2.0", id: 12, method: "echo", params: {} });
    expect(own.status).toBe(200);
  });

  it("event ids carry neither the session id nor a sequence an outsider could extend", async () => {
    const url = await server();
    const alice = await open(url, "alice");
    const call = await post(url, "alice", alice, { jsonrpc: "2.0", id: 13, method: "echo", params: {} });
    const ids = [...call.text.matchAll(/^id: (.*)$/gm)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      expect(id).not.toContain(alice);
      expect(id).toMatch(/^[0-9a-f]{32}$/);
    }
    // The in-memory store itself: ids are random, and a made-up `<stream>_<n>` names nothing.
    const store = createInMemoryEventStore();
    const first = store.storeEvent(`${alice}-0`, { jsonrpc: "2.0", method: "a" }) as string;
    store.storeEvent(`${alice}-0`, { jsonrpc: "2.0", method: "b" });
    expect(first).not.toContain(alice);
    for (const guess of [`${alice}-0_1`, `${alice}-0_2`, `${alice}-0-1`])
      expect(store.streamIdOf(guess)).toBeUndefined();
  });
});
