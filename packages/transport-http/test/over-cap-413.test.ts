import { afterEach, describe, expect, it } from "vitest";
import type { HttpLimitEvent } from "../src/limits.js";
import { type HttpServerHandle, listen } from "../src/node.js";
import { createTestApp } from "./app.js";
import { MODERN } from "./support.js";

// An over-cap body must reach a fetch client as its 413, not as `fetch failed`: the server reads (and
// drops) the rest of the upload, within a bound, instead of closing the socket under the client's feet,
// which resets the connection and loses the answer already sent.

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": MODERN,
};

let handle: HttpServerHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

async function serve(maxBodyBytes: number) {
  const limits: HttpLimitEvent[] = [];
  const app = createTestApp({ onLimit: (e: HttpLimitEvent) => limits.push(e) });
  handle = await listen({ ...app.options, maxBodyBytes, onLimit: (e) => limits.push(e) });
  return { url: handle.url, limits };
}

const body = (bytes: number) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: { pad: "x".repeat(bytes) } });

describe("over-cap body: the 413 arrives", () => {
  it("a declared length over the cap (a Buffer body), many times over: every one is a 413", async () => {
    const { url, limits } = await serve(64 * 1024);
    const big = Buffer.from(body(4 * 1024 * 1024));
    for (let i = 0; i < 12; i++) {
      const res = await fetch(url, { method: "POST", headers: HEADERS, body: big });
      expect(res.status).toBe(413);
      expect((await res.json()).error.code).toBe(-32600);
    }
    expect(limits.filter((l) => l.limit === "maxBodyBytes")).toHaveLength(12);
  });

  it("a streamed (chunked) body over the cap, in many chunks: every one is a 413", async () => {
    const { url } = await serve(64 * 1024);
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    for (let i = 0; i < 8; i++) {
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent++ < 48) c.enqueue(chunk);
          else c.close();
        },
      });
      const res = await fetch(url, {
        method: "POST",
        headers: HEADERS,
        body: stream,
        duplex: "half",
      } as RequestInit);
      expect(res.status).toBe(413);
      await res.text();
    }
  });
});
