import { createPeer, TimeoutError, TransportError } from "@mcpkit/jsonrpc";
import { describe, expect, it } from "vitest";
import { createSseClientTransport } from "../src/index.js";

/** An in-process 2024-11-05 server: GET /sse announces `endpoint`; POSTs get 202 and answers go on the stream. */
function fakeOldServer(endpoint = "/messages?sessionId=abc") {
  let push!: (text: string) => void;
  const posts: string[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === "/sse") {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (text) => controller.enqueue(new TextEncoder().encode(text));
        },
      });
      if (endpoint !== "") queueMicrotask(() => push(`event: endpoint\ndata: ${endpoint}\n\n`));
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    }
    if (request.method === "POST" && url.pathname === "/messages") {
      const body = await request.text();
      posts.push(`${url.search} ${body}`);
      const message = JSON.parse(body);
      if (message.id !== undefined && message.method === "echo") {
        queueMicrotask(() =>
          push(
            `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: message.id, result: message.params })}\n\n`,
          ),
        );
      }
      return new Response("Accepted", { status: 202 });
    }
    return new Response("not found", { status: 404 });
  };
  return { fetch, posts };
}

describe("createSseClientTransport (2024-11-05 HTTP+SSE)", () => {
  it("waits for the endpoint event, POSTs there, and reads answers from the stream", async () => {
    const server = fakeOldServer();
    const transport = createSseClientTransport({ url: "http://127.0.0.1:1/sse", fetch: server.fetch });
    const client = createPeer(transport);
    try {
      await client.start();
      expect(transport.endpoint?.href).toBe("http://127.0.0.1:1/messages?sessionId=abc");
      await expect(client.request("echo", { a: "é" })).resolves.toEqual({ a: "é" });
      await client.notify("ping-note");
      expect(server.posts).toHaveLength(2);
      expect(server.posts[0]).toMatch(/^\?sessionId=abc /);
    } finally {
      await client.close();
    }
  });

  it("refuses an endpoint on another origin", async () => {
    const server = fakeOldServer("https://evil.example.com/messages");
    const transport = createSseClientTransport({ url: "http://127.0.0.1:1/sse", fetch: server.fetch });
    await expect(transport.start({ onMessage() {}, onInvalid() {}, onClose() {} })).rejects.toBeInstanceOf(
      TransportError,
    );
  });

  it("gives up on a server that never announces an endpoint (bounded wait)", async () => {
    const server = fakeOldServer("");
    const transport = createSseClientTransport({
      url: "http://127.0.0.1:1/sse",
      fetch: server.fetch,
      endpointTimeout: 30,
    });
    await expect(transport.start({ onMessage() {}, onInvalid() {}, onClose() {} })).rejects.toBeInstanceOf(
      TimeoutError,
    );
  });
});
