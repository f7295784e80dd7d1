import { createServer } from "node:net";
import { TransportError } from "@mcpkit/jsonrpc";
import { describe, expect, it } from "vitest";
import { createStreamableHttpClientTransport, HttpError } from "../src/index.js";
import { describeNetworkFailure } from "../src/internal/network-error.js";
import { createNodeFetch } from "../src/node.js";

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sink = { onMessage() {}, onInvalid() {}, onClose() {} };
const ping = { jsonrpc: "2.0" as const, id: 1, method: "ping" };

describe("network errors name their root cause", () => {
  it.each([
    ["global fetch", () => globalThis.fetch],
    ["createNodeFetch", () => createNodeFetch()],
  ])("connection refused through %s", async (_name, makeFetch) => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const transport = createStreamableHttpClientTransport({ url, fetch: makeFetch() as typeof fetch });
    await transport.start(sink);
    const error = await transport.send(ping).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toBe(`HTTP POST ${url} failed: connection refused (ECONNREFUSED)`);
    await transport.close();
  });

  it("names a host that does not resolve, a TLS failure, and falls back to the innermost message", () => {
    const wrap = (inner: Error) => new TypeError("fetch failed", { cause: inner });
    const coded = (message: string, code: string) => Object.assign(new Error(message), { code });
    expect(describeNetworkFailure(wrap(coded("getaddrinfo ENOTFOUND nope.invalid", "ENOTFOUND")))).toBe(
      "host not found (ENOTFOUND)",
    );
    expect(
      describeNetworkFailure(wrap(coded("self-signed certificate", "DEPTH_ZERO_SELF_SIGNED_CERT"))),
    ).toBe("TLS: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)");
    expect(
      describeNetworkFailure(
        wrap(Object.assign(new AggregateError([coded("connect ECONNREFUSED ::1:9", "ECONNREFUSED")]), {})),
      ),
    ).toBe("connection refused (ECONNREFUSED)");
    expect(describeNetworkFailure(wrap(new Error("other side hung up")))).toBe("other side hung up");
  });

  it("says HTTP 404 from the URL for a wrong path, even when the 404 carries a JSON-RPC error", async () => {
    const fetch404 = async () =>
      new Response(
        JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Not found" } }),
        {
          status: 404,
          headers: { "content-type": "application/json" },
        },
      );
    const transport = createStreamableHttpClientTransport({
      url: "http://127.0.0.1:1/wrong",
      fetch: fetch404,
    });
    await transport.start(sink);
    const error = await transport.send(ping).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toBe("HTTP 404 from http://127.0.0.1:1/wrong");
    expect((error as HttpError).url).toBe("http://127.0.0.1:1/wrong");
    await transport.close();
  });
});
