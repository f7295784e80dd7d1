// The handler's shared-session paths, with several handlers in one process sharing an in-memory store
// (packages/redis tests the same across real processes and a real Redis).
import { createPeer, type Peer, type Transport } from "@mcpkit/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import {
  createStreamableHttpHandler,
  type HttpConnectionInfo,
  type SessionStore,
  type StreamableHttpHandler,
} from "../src/index.js";
import { createSessionHub } from "./session-hub.js";
import { LEGACY, rawInitialize, sseMessages } from "./support.js";

const URL_ = "http://localhost/mcp";

/** An app on one instance: a peer per transport, with the carrier's id prefix; `roots` asks unrelated. */
function app(connections: HttpConnectionInfo[]) {
  return (transport: Transport, info: HttpConnectionInfo) => {
    connections.push(info);
    const shared = info.sharedSession;
    const options = shared ? { requestIdPrefix: shared.requestIdPrefix } : {};
    const peer: Peer = createPeer(transport, options);
    peer.onRequest("initialize", () => ({
      protocolVersion: LEGACY,
      capabilities: {},
      serverInfo: { name: "a", version: "1" },
    }));
    peer.onRequest("echo", (params) => params);
    // A server-to-client request tied to no POST: it goes out on the session's GET stream, wherever held.
    peer.onRequest("roots", () => peer.request("roots/list"));
    return peer.start();
  };
}

function post(handler: StreamableHttpHandler, sessionId: string, body: unknown): Promise<Response> {
  return handler.fetch(
    new Request(URL_, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": LEGACY,
      },
      body: JSON.stringify(body),
    }),
  );
}

/** Reads an SSE body until a message matches. */
async function readUntil(response: Response, match: (m: any) => boolean): Promise<any> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`The stream ended first: ${text}`);
    text += decoder.decode(value, { stream: true });
    const found = sseMessages(text.slice(0, text.lastIndexOf("\n\n") + 2)).find(match);
    if (found) {
      reader.releaseLock();
      return found;
    }
  }
}

describe("shared legacy sessions (sessionStore)", () => {
  const handlers: StreamableHttpHandler[] = [];
  afterEach(async () => {
    for (const h of handlers.splice(0)) await h.close();
  });

  function instances(n: number) {
    const hub = createSessionHub();
    const connections: HttpConnectionInfo[][] = [];
    const stores: SessionStore[] = [];
    for (let i = 0; i < n; i++) {
      const seen: HttpConnectionInfo[] = [];
      connections.push(seen);
      stores.push(hub.store());
      handlers.push(createStreamableHttpHandler({ connect: app(seen), sessionStore: stores[i]! }));
    }
    return { hub, connections, stores, handlers: handlers.slice(-n) };
  }

  it("takes up a session opened elsewhere, and sends an unrelated request to the GET stream another instance holds", async () => {
    const {
      hub,
      connections,
      stores,
      handlers: [a, b],
    } = instances(2);
    const { sessionId } = await rawInitialize(
      (input, init) => a!.fetch(new Request(input as string, init)),
      URL_,
    );
    expect(hub.records.has(sessionId)).toBe(true);
    const get = await a!.fetch(
      new Request(URL_, {
        headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY },
      }),
    );
    expect(get.status).toBe(200);
    const asking = post(b!, sessionId, { jsonrpc: "2.0", id: 5, method: "roots" });
    const request = await readUntil(get, (m) => m.method === "roots/list");
    expect(connections[1]).toEqual([expect.objectContaining({ era: "legacy", sessionId, adopted: true })]);
    // Its id names the instance that waits for the answer.
    expect(request.id).toBe(`${stores[1]!.instanceId}~1`);
    // The answer reaches A, which routes it to B by its id.
    const answered = await post(a!, sessionId, { jsonrpc: "2.0", id: request.id, result: { roots: [] } });
    expect(answered.status).toBe(202);
    expect(sseMessages(await (await asking).text())).toContainEqual({
      jsonrpc: "2.0",
      id: 5,
      result: { roots: [] },
    });
  });

  it("keeps an unrelated request while no instance holds the GET stream, and sends it on the next GET", async () => {
    const {
      handlers: [a, b],
    } = instances(2);
    const { sessionId } = await rawInitialize(
      (input, init) => a!.fetch(new Request(input as string, init)),
      URL_,
    );
    const asking = post(b!, sessionId, { jsonrpc: "2.0", id: 6, method: "roots" });
    const response = await asking;
    expect(response.status).toBe(200);
    const get = await a!.fetch(
      new Request(URL_, {
        headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY },
      }),
    );
    const request = await readUntil(get, (m) => m.method === "roots/list");
    await post(b!, sessionId, { jsonrpc: "2.0", id: request.id, result: { roots: [] } });
    expect(sseMessages(await response.text())).toContainEqual({
      jsonrpc: "2.0",
      id: 6,
      result: { roots: [] },
    });
  });

  it("a closing instance lets go of its replicas only; DELETE on one ends the session on all", async () => {
    const {
      hub,
      handlers: [a, b, c],
    } = instances(3);
    const { sessionId } = await rawInitialize(
      (input, init) => a!.fetch(new Request(input as string, init)),
      URL_,
    );
    for (const h of [b!, c!])
      expect((await post(h, sessionId, { jsonrpc: "2.0", id: 1, method: "echo" })).status).toBe(200);
    expect(b!.sessionCount).toBe(1);
    await b!.close();
    expect(hub.records.has(sessionId)).toBe(true);
    expect((await post(a!, sessionId, { jsonrpc: "2.0", id: 2, method: "echo" })).status).toBe(200);
    const ended = await c!.fetch(
      new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": sessionId } }),
    );
    expect(ended.status).toBe(200);
    await Promise.resolve();
    expect(a!.sessionCount).toBe(0);
    expect(c!.sessionCount).toBe(0);
    expect((await post(a!, sessionId, { jsonrpc: "2.0", id: 3, method: "echo" })).status).toBe(404);
  });
});
