import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_HANDSHAKE_TIMEOUT, type HttpLimitEvent } from "../src/index.js";
import { type HttpServerHandle, listen } from "../src/node.js";
import { createTestApp } from "./app.js";
import { LEGACY, rawInitialize } from "./support.js";

// handshakeTimeout on a real port: a legacy session whose client sends nothing after initialize ends
// (its app connection closes, later requests get 404, onLimit names the limit), and a session that sent
// notifications/initialized is left alone. Waits are on the onLimit event, bounded by the test timeout.

const JSON_SSE = { "content-type": "application/json", accept: "application/json, text/event-stream" };

let handle: HttpServerHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

function post(url: string, sessionId: string, body: Record<string, unknown>) {
  return fetch(url, {
    method: "POST",
    headers: { ...JSON_SSE, "mcp-protocol-version": LEGACY, "mcp-session-id": sessionId },
    body: JSON.stringify({ jsonrpc: "2.0", ...body }),
  });
}

describe("handshakeTimeout", () => {
  it("ends a session whose initialize is followed by nothing, and only that one", async () => {
    let timedOut!: (event: HttpLimitEvent) => void;
    const event = new Promise<HttpLimitEvent>((r) => (timedOut = r));
    const app = createTestApp();
    handle = await listen({
      ...app.options,
      // Long enough for the polite client's notification on a busy machine; the wait is on the event.
      handshakeTimeout: 2_000,
      onLimit: (e) => {
        if (e.limit === "handshakeTimeout") timedOut(e);
      },
    });
    const url = handle.url;
    // The polite client first: its timer would fire before the silent one's, had it not been cleared.
    const polite = await rawInitialize(fetch, url);
    const initialized = await post(url, polite.sessionId, { method: "notifications/initialized" });
    expect(initialized.status).toBe(202);
    const silent = await rawInitialize(fetch, url);
    const politePeer = app.log.peers[0]!;
    const silentPeer = app.log.peers[1]!;

    const told = await event;
    expect(told).toMatchObject({ limit: "handshakeTimeout", value: 2_000, sessionId: silent.sessionId });
    expect(told.status).toBeUndefined();
    expect(told.message).toMatch(/sent nothing after initialize for 2000 ms/);
    // The session ended: its app connection closed, and its id is unknown from now on.
    await silentPeer.closed;
    const late = await post(url, silent.sessionId, { id: 1, method: "echo", params: { x: 1 } });
    expect(late.status).toBe(404);
    await late.text();
    // The other session lives on.
    const ok = await post(url, polite.sessionId, { id: 2, method: "echo", params: { x: 2 } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('"x":2');
    expect(handle.handler.sessionCount).toBe(1);
    let politeClosed = false;
    void politePeer.closed.then(() => (politeClosed = true));
    await Promise.resolve();
    expect(politeClosed).toBe(false);
  });

  it("defaults to 30 s", () => {
    expect(DEFAULT_HANDSHAKE_TIMEOUT).toBe(30_000);
  });
});
