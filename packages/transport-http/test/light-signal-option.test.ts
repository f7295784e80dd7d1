// The client transport hands a light abort signal only to a fetch that says it takes one
// (`acceptsLightSignal: true`, createNodeFetch's `NodeFetch`); any other fetch, a wrapper around
// createNodeFetch's included, gets a real AbortSignal. Real loopback HTTP, a real handler.
import { modernRequestHeaders } from "@mcpkit/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { createStreamableHttpClientTransport } from "../src/index.js";
import { createNodeFetch, type FetchLike, listen, nodeBodyReader } from "../src/node.js";
import { createTestApp } from "./app.js";
import { MODERN } from "./support.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** Sends one modern `echo` through `fetch` and returns the signals the fetch was given. */
async function signalsSeen(fetch: FetchLike & { readonly acceptsLightSignal?: boolean }) {
  const app = createTestApp();
  const server = await listen({ ...app.options });
  cleanups.push(() => server.close());
  const seen: unknown[] = [];
  const recording = Object.assign(
    (input: string | URL | Request, init?: RequestInit) => {
      seen.push(init?.signal);
      return fetch(input, init);
    },
    fetch.acceptsLightSignal === undefined ? {} : { acceptsLightSignal: fetch.acceptsLightSignal },
  );
  const transport = createStreamableHttpClientTransport({
    url: server.url,
    fetch: recording,
    bodyReader: nodeBodyReader,
    era: "modern",
    protocolVersion: MODERN,
  });
  let answered!: () => void;
  const answer = new Promise<void>((resolve) => (answered = resolve));
  await transport.start({
    onMessage(value) {
      if ((value as { id?: unknown }).id === 1) answered();
    },
    onInvalid() {},
    onClose() {},
  });
  cleanups.push(() => transport.close());
  await transport.send(
    { jsonrpc: "2.0", id: 1, method: "echo", params: { _meta: META } },
    { headers: modernRequestHeaders(MODERN, "echo", {}) },
  );
  await answer;
  return seen;
}

describe("acceptsLightSignal: the fetch says it takes a light signal", () => {
  it("createNodeFetch's fetch declares it, and the transport hands it a light signal, not an AbortSignal", async () => {
    const nodeFetch = createNodeFetch();
    cleanups.push(() => nodeFetch.destroy());
    expect(nodeFetch.acceptsLightSignal).toBe(true);
    const seen = await signalsSeen(nodeFetch);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeDefined();
    expect(seen[0]).not.toBeInstanceOf(AbortSignal);
    expect((seen[0] as { aborted: boolean }).aborted).toBe(false);
  });

  it("a fetch without it (a wrapper around createNodeFetch's) gets a real AbortSignal", async () => {
    const nodeFetch = createNodeFetch();
    cleanups.push(() => nodeFetch.destroy());
    const wrapper: FetchLike = (input, init) => nodeFetch(input, init);
    const seen = await signalsSeen(wrapper);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(AbortSignal);
  });
});
