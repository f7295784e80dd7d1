// Issue 25 (also weak): a cross-origin 307/308 from an MCP server used to re-send the request's custom
// headers (`-H X-Api-Key: …`) to the other origin. Two real loopback servers: the MCP endpoint redirects,
// the other origin records what reaches it.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { TransportError } from "@mcpkit/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { createSseClientTransport, createStreamableHttpClientTransport } from "../src/index.js";
import { createNodeFetch, nodeBodyReader } from "../src/node.js";

let cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
  cleanups = [];
});

async function start(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const answer = (res: import("node:http").ServerResponse) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
};

/** The other origin: records every request's headers, answers like an MCP server would. */
async function elsewhere() {
  const seen: IncomingHttpHeaders[] = [];
  const origin = await start((req, res) => {
    seen.push(req.headers);
    req.resume();
    answer(res);
  });
  // Another origin by name too (localhost, not 127.0.0.1), as a DNS name pointing elsewhere would be.
  return { seen, url: `${origin.replace("127.0.0.1", "localhost")}/collect` };
}

const sink = { onMessage() {}, onInvalid() {}, onClose() {} };
const ping = { jsonrpc: "2.0" as const, id: 1, method: "ping" };
/** A fetch wrapper that adds a credential, as `withAuth` does. */
const withToken =
  (inner: typeof fetch): typeof fetch =>
  (input, init) =>
    inner(input as string, {
      ...init,
      headers: { ...(init?.headers as object), authorization: "Bearer secret" },
    });

const fetches = [
  ["the global fetch", () => ({ fetch: withToken(globalThis.fetch) })],
  [
    "createNodeFetch",
    () => {
      const nodeFetch = createNodeFetch();
      cleanups.push(() => nodeFetch.destroy());
      return { fetch: withToken(nodeFetch as typeof fetch), bodyReader: nodeBodyReader };
    },
  ],
] as const;

/** Sends one ping with an `X-Api-Key` header (an app's `-H`) through a fresh client transport. */
async function pingWithKey(url: string, extra: object): Promise<void> {
  const transport = createStreamableHttpClientTransport({
    url,
    headers: { "x-api-key": "k-123" },
    openStandaloneStream: false,
    ...extra,
  });
  cleanups.push(() => transport.close());
  await transport.start(sink);
  await transport.send(ping);
}

describe("[issue-25.weak] a redirect never carries the request's headers to another origin", () => {
  it.each(fetches)(
    "a cross-origin 307 and 308 are refused through %s: X-Api-Key never arrives",
    async (_n, make) => {
      const other = await elsewhere();
      for (const status of [307, 308]) {
        const mcp = await start((req, res) => {
          req.resume();
          res.writeHead(status, { location: other.url });
          res.end();
        });
        const error = await pingWithKey(`${mcp}/mcp`, make()).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(TransportError);
        expect((error as Error).message).toContain(
          `HTTP ${status} from ${mcp}/mcp redirects to another origin`,
        );
      }
      expect(other.seen).toEqual([]);
    },
  );

  it.each(fetches)("a same-origin 307 is followed with its headers through %s", async (_n, make) => {
    const seen: IncomingHttpHeaders[] = [];
    const mcp = await start((req, res) => {
      req.resume();
      if (req.url === "/mcp") {
        res.writeHead(307, { location: "/moved" });
        res.end();
        return;
      }
      seen.push(req.headers);
      answer(res);
    });
    await pingWithKey(`${mcp}/mcp`, make());
    expect(seen).toHaveLength(1);
    expect(seen[0]!["x-api-key"]).toBe("k-123");
  });

  it("the HTTP+SSE client refuses a cross-origin redirect of its GET", async () => {
    const other = await elsewhere();
    const mcp = await start((_req, res) => {
      res.writeHead(307, { location: other.url });
      res.end();
    });
    const transport = createSseClientTransport({ url: `${mcp}/sse`, headers: { "x-api-key": "k-123" } });
    cleanups.push(() => transport.close());
    await expect(transport.start(sink)).rejects.toThrow("redirects to another origin");
    expect(other.seen).toEqual([]);
  });
});
