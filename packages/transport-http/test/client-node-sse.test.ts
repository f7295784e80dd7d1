// The client transport over createNodeFetch against a hand-written node:http server whose SSE replies
// are complete bodies with a content-length (they arrive whole, so the client parses them at once):
// the events, the legacy resumption and the modern failure must be those of a streamed body, and the
// keep-alive socket must be reused.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createPeer, TransportError } from "@mcpkit/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { createStreamableHttpClientTransport } from "../src/index.js";
import { createNodeFetch, nodeBodyReader } from "../src/node.js";
import { LEGACY, MODERN } from "./support.js";

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

interface Seen {
  method: string;
  headers: IncomingMessage["headers"];
  body: { id?: number; method?: string } | undefined;
}

/** A server answering with `reply`; records requests and counts connections. */
async function serve(reply: (seen: Seen, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      const entry: Seen = {
        method: req.method ?? "",
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      };
      seen.push(entry);
      reply(entry, res);
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, seen, connections: () => connections };
}

function whole(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body), ...extra });
  res.end(body);
}

async function client(url: string, era: "legacy" | "modern") {
  const fetch = createNodeFetch();
  const transport = createStreamableHttpClientTransport({
    url,
    fetch,
    bodyReader: nodeBodyReader,
    era,
    protocolVersion: era === "modern" ? MODERN : LEGACY,
    openStandaloneStream: false,
  });
  const peer = createPeer(transport, { timeout: 10_000 });
  await peer.start();
  cleanups.push(
    () => fetch.destroy(),
    () => peer.close(),
  );
  return peer;
}

describe("complete SSE bodies over createNodeFetch", () => {
  it("delivers every event in order (LF, CRLF, CR) and reuses one keep-alive socket", async () => {
    const server = await serve((seen, res) => {
      const id = seen.body?.id;
      const note = JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { data: id } });
      const answer = JSON.stringify({ jsonrpc: "2.0", id, result: { n: id } });
      whole(
        res,
        200,
        "text/event-stream",
        `id: a${id}\r\ndata: ${note}\r\n\r\nevent: message\rdata: ${answer}\r\r`,
      );
    });
    const peer = await client(server.url, "modern");
    const notes: unknown[] = [];
    peer.onNotification("notifications/message", (p: { data: unknown }) => {
      notes.push(p.data);
    });
    for (let i = 0; i < 20; i++) {
      const result = (await peer.request("echo", { _meta: {} })) as { n: number };
      expect(notes.at(-1)).toBe(result.n);
    }
    expect(notes).toHaveLength(20);
    expect(server.connections()).toBe(1);
  });

  it("legacy: a complete body that ends before the response is resumed by GET with Last-Event-ID", async () => {
    const server = await serve((seen, res) => {
      if (seen.method === "POST") {
        whole(res, 200, "text/event-stream", "id: p1\nretry: 5\ndata:\n\n");
        return;
      }
      if (seen.method === "GET" && seen.headers["last-event-id"] === "p1") {
        const post = server.seen.find((s) => s.method === "POST")!;
        const answer = JSON.stringify({ jsonrpc: "2.0", id: post.body?.id, result: { resumed: true } });
        whole(res, 200, "text/event-stream", `id: p2\ndata: ${answer}\n\n`);
        return;
      }
      whole(res, 400, "text/plain", "unexpected");
    });
    const peer = await client(server.url, "legacy");
    await expect(peer.request("work", {})).resolves.toEqual({ resumed: true });
    expect(server.seen.map((s) => [s.method, s.headers["last-event-id"]])).toEqual([
      ["POST", undefined],
      ["GET", "p1"],
    ]);
  });

  it("modern: a complete body without the response fails the request (no resumption)", async () => {
    const server = await serve((_seen, res) => {
      whole(res, 200, "text/event-stream", "id: p1\ndata:\n\n: only a comment\n\n");
    });
    const peer = await client(server.url, "modern");
    const error = await peer.request("work", { _meta: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(server.seen.map((s) => s.method)).toEqual(["POST"]);
  });

  it("legacy: an empty complete body (nothing to resume from) fails the request and the socket stays usable", async () => {
    const server = await serve((seen, res) => {
      if (seen.body?.method === "empty") {
        whole(res, 200, "text/event-stream", "");
        return;
      }
      const answer = JSON.stringify({ jsonrpc: "2.0", id: seen.body?.id, result: { ok: 2 } });
      whole(res, 200, "text/event-stream", `data: ${answer}\n\n`);
    });
    const peer = await client(server.url, "legacy");
    const error = await peer.request("empty", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    await expect(peer.request("next", {})).resolves.toEqual({ ok: 2 });
    expect(server.connections()).toBe(1);
  });

  it("a bad JSON event is reported as invalid and the response that follows still arrives", async () => {
    const server = await serve((seen, res) => {
      const answer = JSON.stringify({ jsonrpc: "2.0", id: seen.body?.id, result: { ok: 1 } });
      whole(res, 200, "text/event-stream", `data: {not json\n\ndata: ${answer}\n\n`);
    });
    const peer = await client(server.url, "modern");
    await expect(peer.request("work", { _meta: {} })).resolves.toEqual({ ok: 1 });
  });
});
