import { connect as connectTcp, type Socket } from "node:net";
import type { Peer } from "@mcpkit/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import type { HttpLimitEvent } from "../src/limits.js";
import { type HttpServerHandle, listen } from "../src/node.js";
import { createTestApp } from "./app.js";
import { LEGACY, MODERN, rawInitialize } from "./support.js";

// Every limit on a real port: the status (or closed stream) a client sees, the one line the log is told,
// and a server that goes on answering. Waits are on events, bounded by the test timeout.

const JSON_SSE = { "content-type": "application/json", accept: "application/json, text/event-stream" };

let handle: HttpServerHandle | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await handle?.close();
  handle = undefined;
});

async function serve(extra: Parameters<typeof createTestApp>[0] & Record<string, unknown> = {}) {
  const limits: HttpLimitEvent[] = [];
  const app = createTestApp({ onLimit: (e: HttpLimitEvent) => limits.push(e), ...extra });
  handle = await listen({ ...app.options, ...extra, onLimit: (e) => limits.push(e) });
  return { app, limits, url: handle.url, port: handle.port };
}

/** Writes raw bytes on a fresh socket and resolves with everything the server sent until it closed. */
function raw(port: number, chunks: string[], { end = false } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(port, "127.0.0.1");
    sockets.push(socket);
    let out = "";
    socket.setEncoding("utf8");
    socket.on("data", (d) => (out += d));
    socket.on("error", reject);
    socket.on("close", () => resolve(out));
    socket.on("connect", () => {
      for (const c of chunks) socket.write(c);
      if (end) socket.end();
    });
  });
}

function modernPost(url: string, method: string, id: number, signal?: AbortSignal) {
  return fetch(url, {
    method: "POST",
    signal,
    headers: { ...JSON_SSE, "mcp-protocol-version": MODERN, "mcp-method": method },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method,
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
}

async function stillServes(url: string): Promise<void> {
  const res = await modernPost(url, "echo", 99);
  expect(res.status).toBe(200);
  await res.text();
}

describe("limits", () => {
  it("maxBodyBytes: a declared length over the cap gets 413 before the body is sent", async () => {
    const { limits, port, url } = await serve({ maxBodyBytes: 1024 });
    // Only the head is sent: the answer must come without the 1 MiB the head announces.
    const reply = await raw(port, [
      `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
        `accept: application/json, text/event-stream\r\ncontent-length: 1048576\r\n\r\n{"jsonrpc":`,
    ]);
    expect(reply).toMatch(/^HTTP\/1\.1 413/);
    expect(reply).toContain('"code":-32600');
    expect(limits.map((l) => l.limit)).toEqual(["maxBodyBytes"]);
    await stillServes(url);
  });

  it("maxBodyBytes: a chunked body is cut at the cap with 413", async () => {
    const { limits, url } = await serve({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: { x: "y".repeat(4096) } });
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const res = await fetch(url, {
      method: "POST",
      headers: { ...JSON_SSE, "mcp-protocol-version": MODERN },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    await res.text();
    expect(limits[0]?.limit).toBe("maxBodyBytes");
    await stillServes(url);
  });

  it("maxHeaderSize: oversized headers get 431 and a log line", async () => {
    const { limits, port, url } = await serve({ maxHeaderSize: 2048 });
    const reply = await raw(port, [
      `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\nx-filler: ${"a".repeat(4096)}\r\n\r\n`,
    ]);
    expect(reply).toMatch(/^HTTP\/1\.1 431/);
    expect(limits.map((l) => l.limit)).toEqual(["maxHeaderSize"]);
    await stillServes(url);
  });

  it("headersTimeout: headers that trickle in (slowloris) end in 408 and a closed socket", async () => {
    const { limits, port, url } = await serve({ headersTimeout: 300, requestTimeout: 600 });
    const reply = await raw(port, ["POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n"]);
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
    expect(limits.map((l) => l.limit)).toEqual(["headersTimeout"]);
    await stillServes(url);
  });

  it("requestTimeout: a body that never completes ends with the connection closed and a log line", async () => {
    const { limits, port, url } = await serve({ headersTimeout: 300, requestTimeout: 600 });
    await raw(port, [
      "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n" +
        'accept: application/json, text/event-stream\r\ncontent-length: 100\r\n\r\n{"jsonrpc"',
    ]);
    expect(limits.map((l) => l.limit)).toEqual(["requestTimeout"]);
    await stillServes(url);
  });

  it("maxSessions: a further initialize gets 503 with Retry-After", async () => {
    const { limits, url } = await serve({ maxSessions: 2 });
    await rawInitialize(fetch, url);
    await rawInitialize(fetch, url);
    const res = await fetch(url, {
      method: "POST",
      headers: JSON_SSE,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600);
    expect(limits.map((l) => l.limit)).toEqual(["maxSessions"]);
    await stillServes(url);
  });

  it("maxConcurrentRequestsPerSession: one request too many in a session gets 429 with Retry-After", async () => {
    const { app, limits, url } = await serve({ maxConcurrentRequestsPerSession: 2 });
    const { sessionId } = await rawInitialize(fetch, url);
    const headers = { ...JSON_SSE, "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
    const post = (id: number, method: string, signal?: AbortSignal) =>
      fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id, method }), signal });
    const gone = new AbortController();
    const slow = [post(1, "slow", gone.signal), post(2, "slow", gone.signal)];
    await Promise.all(slow);
    const res = await post(3, "echo");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    await res.text();
    expect(limits.map((l) => [l.limit, l.sessionId])).toEqual([
      ["maxConcurrentRequestsPerSession", sessionId],
    ]);
    // A legacy request outlives its stream (it is resumable): cancelling ends it, and the session serves again.
    gone.abort();
    for (const requestId of [1, 2]) {
      const cancel = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } }),
      });
      expect(cancel.status).toBe(202);
    }
    await waitFor(() => app.log.aborted.length === 2);
    const again = await post(4, "echo");
    expect(again.status).toBe(200);
    await again.text();
  });

  it("maxConcurrentRequests: one request too many on the server gets 503 with Retry-After", async () => {
    const { app, limits, url } = await serve({ maxConcurrentRequests: 2 });
    const gone = new AbortController();
    for (const id of [1, 2]) modernPost(url, "slow", id, gone.signal).catch(() => {});
    // Each modern request is a connection of its own: both slow ones are in flight once both connected.
    await waitFor(() => app.log.connections.length === 2);
    const res = await modernPost(url, "echo", 3);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    await res.text();
    expect(limits.map((l) => l.limit)).toEqual(["maxConcurrentRequests"]);
    gone.abort();
    await waitFor(() => app.log.aborted.length === 2);
    await stillServes(url);
  });

  it("maxSseBufferBytes: a client that never reads its GET stream has it closed, with a log line", async () => {
    let peer: Peer | undefined;
    const limits: HttpLimitEvent[] = [];
    const app = createTestApp();
    handle = await listen({
      ...app.options,
      maxSseBufferBytes: 64 * 1024,
      onLimit: (e) => limits.push(e),
      async connect(transport, info) {
        await app.options.connect(transport, info);
        peer = app.log.peers.at(-1);
      },
    });
    const { sessionId } = await rawInitialize(fetch, handle.url);
    // A GET whose reader never reads: a raw socket that is paused after the head.
    const socket = connectTcp(handle.port, "127.0.0.1");
    sockets.push(socket);
    const closed = new Promise<void>((r) => socket.on("close", () => r()));
    await new Promise<void>((r) => socket.on("connect", r));
    socket.write(
      `GET /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/event-stream\r\n` +
        `mcp-session-id: ${sessionId}\r\nmcp-protocol-version: ${LEGACY}\r\n\r\n`,
    );
    await new Promise<void>((r) => socket.once("data", () => r()));
    socket.pause();
    const chunk = "z".repeat(16 * 1024);
    // Pushes until the server gives up on the stream (the kernel's buffers fill first).
    for (let i = 0; i < 20_000 && limits.length === 0; i++) {
      await peer!.notify("notifications/message", { level: "info", data: chunk }).catch(() => {});
      if (i % 16 === 0) await new Promise((r) => setImmediate(r));
    }
    expect(limits.map((l) => l.limit)).toEqual(["maxSseBufferBytes"]);
    socket.resume();
    await closed;
    expect(handle.handler.sessionCount).toBe(1);
    await stillServes(handle.url);
  });
});

/** Resolves once `check` holds, polling on the event loop (bounded by the test timeout). */
async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setImmediate(r));
}
