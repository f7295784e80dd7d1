import { createPeer, type Peer } from "@mcpkit/jsonrpc";
import { modernRequestHeaders } from "@mcpkit/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { createStreamableHttpClientTransport } from "../src/index.js";
import { LEGACY, MODERN } from "./support.js";

/** A fetch that records each POST's headers and answers every request with an empty result (JSON). */
function answeringFetch() {
  const posts: Headers[] = [];
  const doFetch = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    if (init?.method !== "POST") return new Response(null, { status: 405 });
    posts.push(headers);
    const message = JSON.parse(String(init.body)) as { id?: number; method: string };
    if (message.id === undefined) return new Response(null, { status: 202 });
    const result = message.method === "initialize" ? { protocolVersion: LEGACY } : {};
    const reply = new Headers({ "content-type": "application/json" });
    if (message.method === "initialize") reply.set("mcp-session-id", "s1");
    return new Response(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }), { headers: reply });
  };
  return { posts, doFetch };
}

const peers: Peer[] = [];
afterEach(async () => {
  for (const p of peers.splice(0)) await p.close();
});

describe("the era follows what comes down with the sends", () => {
  it("a modern version header switches a default (legacy) transport to modern; initialize switches it back", async () => {
    const { posts, doFetch } = answeringFetch();
    const transport = createStreamableHttpClientTransport({ url: "http://127.0.0.1/mcp", fetch: doFetch });
    expect(transport.traits.perRequestHeaders).toBe(true);
    expect(transport.era).toBe("legacy");
    const peer = createPeer(transport);
    peers.push(peer);
    await peer.start();

    const modern = { "mcp-protocol-version": MODERN, "mcp-method": "server/discover" };
    await peer.request("server/discover", {}, { headers: modern });
    expect(transport.era).toBe("modern");
    expect(transport.traits.perRequestStream).toBe(true);
    expect(posts[0]!.get("mcp-protocol-version")).toBe(MODERN);
    expect(posts[0]!.get("mcp-method")).toBe("server/discover");

    await peer.request("initialize", { protocolVersion: LEGACY, capabilities: {}, clientInfo: {} });
    expect(transport.era).toBe("legacy");
    expect(transport.traits.perRequestStream).toBe(false);
    expect(transport.sessionId).toBe("s1");
    expect(posts[1]!.get("mcp-protocol-version")).toBeNull();
    expect(posts[1]!.get("mcp-method")).toBeNull();

    await peer.request("ping", {}, { headers: { "mcp-protocol-version": LEGACY } });
    expect(transport.era).toBe("legacy");
    expect(posts[2]!.get("mcp-session-id")).toBe("s1");
    expect(posts[2]!.get("mcp-protocol-version")).toBe(LEGACY);
    expect(posts[2]!.get("mcp-method")).toBeNull();
  });

  it("sends the caller's headers as given and computes none (the caller computes them, as the client does)", async () => {
    const { posts, doFetch } = answeringFetch();
    const transport = createStreamableHttpClientTransport({
      url: "http://127.0.0.1/mcp",
      fetch: doFetch,
      era: "modern",
    });
    const peer = createPeer(transport);
    peers.push(peer);
    await peer.start();
    const meta = { "io.modelcontextprotocol/protocolVersion": MODERN };
    const params = { name: "a", _meta: meta };
    const computed = { ...modernRequestHeaders(MODERN, "tools/call", params), "mcp-param-x": "1" };
    await peer.request("tools/call", params, { headers: computed });
    expect(posts[0]!.get("mcp-protocol-version")).toBe(MODERN);
    expect(posts[0]!.get("mcp-method")).toBe("tools/call");
    expect(posts[0]!.get("mcp-name")).toBe("a");
    expect(posts[0]!.get("mcp-param-x")).toBe("1");
    const given = { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "given" };
    await peer.request("tools/call", { name: "a", _meta: meta }, { headers: given });
    expect(posts[1]!.get("mcp-name")).toBe("given");
    // A send without headers gets none of them: nothing is read from the message.
    await peer.request("tools/call", { name: "a", _meta: meta });
    expect(posts[2]!.get("mcp-method")).toBeNull();
    expect(posts[2]!.get("mcp-name")).toBeNull();
    expect(posts[2]!.get("mcp-protocol-version")).toBeNull();
  });
});
