import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  createSseClientTransport,
  createStreamableHttpClientTransport,
  DEFAULT_MAX_RESPONSE_BYTES,
  ResponseTooLargeError,
} from "../src/index.js";
import { createNodeFetch, nodeBodyReader } from "../src/node.js";

const MiB = 1024 * 1024;
const ping = { jsonrpc: "2.0" as const, id: 1, method: "ping" };

/** What a hostile server sent: how many body bytes it managed to write before the client cut it. */
interface Sent {
  written: number;
  total: number;
}

type Reply = (req: IncomingMessage, res: ServerResponse, sent: Sent) => Promise<void>;

let cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
  cleanups = [];
});

/** Writes `total` bytes of `fill` (1 MiB at a time, with backpressure), stopping when the client left. */
async function writeHuge(res: ServerResponse, sent: Sent, head: string, tail: string): Promise<void> {
  const chunk = Buffer.alloc(MiB, "a");
  sent.total = sent.total || 24 * MiB;
  res.write(head);
  while (sent.written < sent.total && !res.destroyed) {
    sent.written += chunk.length;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const go = () => {
          res.off("drain", go);
          res.off("close", go);
          resolve();
        };
        res.on("drain", go);
        res.on("close", go);
      });
    }
  }
  if (!res.destroyed) res.end(tail);
}

/** A loopback server that answers every request with `reply`; `sent` tells what it wrote. */
async function hostile(reply: Reply, total = 24 * MiB): Promise<{ url: string; sent: Sent }> {
  const sent: Sent = { written: 0, total };
  const server: Server = createServer((req, res) => {
    req.resume();
    void reply(req, res, sent).catch(() => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, sent };
}

/** A JSON reply of 24 MiB, chunked (no content-length: only counting the bytes can stop it). */
const hugeJson: Reply = async (_req, res, sent) => {
  res.writeHead(200, { "content-type": "application/json" });
  await writeHuge(res, sent, '{"jsonrpc":"2.0","id":1,"result":{"x":"', '"}}');
};

/** An SSE reply whose one event is 24 MiB. */
const hugeEvent: Reply = async (_req, res, sent) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  await writeHuge(res, sent, 'id: e1\ndata: {"jsonrpc":"2.0","id":1,"result":{"x":"', '"}}\n\n');
};

const sink = { onMessage() {}, onInvalid() {}, onClose() {} };

const fetches = [
  ["the global fetch", () => ({})],
  [
    "createNodeFetch",
    () => {
      const fetch = createNodeFetch();
      cleanups.push(() => fetch.destroy());
      return { fetch: fetch as typeof globalThis.fetch, bodyReader: nodeBodyReader };
    },
  ],
] as const;

async function sendPing(url: string, extra: object): Promise<unknown> {
  const transport = createStreamableHttpClientTransport({
    url,
    openStandaloneStream: false,
    reconnect: { initialDelay: 1, maxRetries: 1 },
    ...extra,
  });
  cleanups.push(() => transport.close());
  await transport.start(sink);
  return transport.send(ping).catch((error: unknown) => error);
}

describe("[issue-25.4] the HTTP client caps what a hostile server sends", () => {
  it.each(fetches)("a 24 MiB JSON reply is cut at 16 MiB through %s", async (_name, make) => {
    const { url, sent } = await hostile(hugeJson);
    const error = await sendPing(url, make());
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toContain(`cap of ${DEFAULT_MAX_RESPONSE_BYTES} bytes`);
    expect((error as Error).message).toContain(url);
    expect(sent.written).toBeLessThan(sent.total);
  });

  it.each(fetches)("a 24 MiB SSE event is cut at 16 MiB through %s, and not resumed", async (_name, make) => {
    let posts = 0;
    let gets = 0;
    const { url, sent } = await hostile(async (req, res, s) => {
      if (req.method === "GET") gets++;
      else posts++;
      await hugeEvent(req, res, s);
    });
    const error = await sendPing(url, make());
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).part).toBe("event");
    expect((error as Error).message).toContain(`cap of ${DEFAULT_MAX_RESPONSE_BYTES} bytes`);
    expect(sent.written).toBeLessThan(sent.total);
    expect([posts, gets]).toEqual([1, 0]);
  });

  it("maxResponseBytes sets the cap: 2 MiB is refused under a 1 MiB cap, as is a declared content-length", async () => {
    const { url } = await hostile(hugeEvent, 2 * MiB);
    const error = await sendPing(url, { maxResponseBytes: MiB });
    expect((error as Error).message).toContain(`cap of ${MiB} bytes`);
    const declared = await hostile(async (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(2 * MiB) });
      res.write("{");
    });
    const refused = await sendPing(declared.url, { maxResponseBytes: MiB });
    expect(refused).toBeInstanceOf(ResponseTooLargeError);
  });

  it("a reply under the cap still arrives whole", async () => {
    const { url } = await hostile(hugeEvent, 2 * MiB);
    const transport = createStreamableHttpClientTransport({ url, openStandaloneStream: false });
    cleanups.push(() => transport.close());
    const got: unknown[] = [];
    await transport.start({ ...sink, onMessage: (m) => got.push(m) });
    await transport.send(ping);
    expect((got[0] as { result: { x: string } }).result.x.length).toBe(2 * MiB);
  });

  it("the HTTP+SSE client closes with the cap error on a 24 MiB event", async () => {
    const { url, sent } = await hostile(async (_req, res, s) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("event: endpoint\ndata: /messages\n\n");
      await writeHuge(res, s, "data: ", "\n\n");
    });
    const closed = new Promise<Error | undefined>((resolve) => {
      const transport = createSseClientTransport({ url });
      cleanups.push(() => transport.close());
      void transport.start({ ...sink, onClose: resolve });
    });
    const reason = await closed;
    expect(reason).toBeInstanceOf(ResponseTooLargeError);
    expect(reason?.message).toContain(`cap of ${DEFAULT_MAX_RESPONSE_BYTES} bytes`);
    expect(sent.written).toBeLessThan(sent.total);
  });
});
