// The client over the real Streamable HTTP transports, talking to our server on 127.0.0.1.
import type { Server } from "@mcpkit/server";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { type HttpServerHandle, listen } from "@mcpkit/transport-http/node";
import { afterEach, describe, expect, it } from "vitest";
import { type Client, createClient, type VersionNegotiation } from "../src/index.js";
import { fixture, handlers } from "./fixture-server.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function serve(server: Server, eras: "both" | "modern" | "legacy" = "both"): Promise<HttpServerHandle> {
  const handle = await listen({ connect: (t) => void server.connect(t), eras });
  cleanup.push(() => handle.close());
  cleanup.push(() => server.close());
  return handle;
}

async function connect(url: string, negotiation: VersionNegotiation = "auto", extra = {}): Promise<Client> {
  const client = createClient({
    name: "http-client",
    version: "1",
    versionNegotiation: negotiation,
    handlers,
    ...extra,
  });
  cleanup.push(() => client.close());
  await client.connect(() => createStreamableHttpClientTransport({ url }));
  return client;
}

describe("over Streamable HTTP against @mcpkit/server", () => {
  it.each([
    ["auto", "both", "modern"],
    ["auto", "legacy", "legacy"],
    ["legacy", "both", "legacy"],
    ["modern", "modern", "modern"],
  ] as const)(
    "negotiation %s against eras=%s gives %s, and the whole API works",
    async (negotiation, eras, era) => {
      const handle = await serve(fixture(), eras);
      const client = await connect(handle.url, negotiation);
      expect(client.era).toBe(era);
      expect((await client.listTools()).length).toBe(5);
      expect((await client.callTool("add", { a: 1, b: 2 })).structured).toEqual({ sum: 3 });
      const steps: number[] = [];
      await client.callTool("progress", {}, { onProgress: (p) => steps.push(p.progress) });
      expect(steps).toEqual([1, 2, 3]);
      expect((await client.callTool("ask")).content).toBe("Ada|sampled|file:///work");
      expect((await client.readResource("mem://item/7")).contents[0]).toMatchObject({ text: "item 7" });
      expect((await client.getPrompt("greet", { who: "http" })).messages).toHaveLength(1);
    },
  );

  it("a slow call with a timeout is cancelled and the next call is fine (both eras)", async () => {
    const server = fixture();
    let cancelled = 0;
    server.registerTool("slow", { description: "never ends" }, (_args, ctx) => {
      return new Promise((resolve) => {
        ctx.signal.addEventListener("abort", () => {
          cancelled++;
          resolve("cancelled");
        });
      });
    });
    const handle = await serve(server);
    for (const negotiation of ["modern", "legacy"] as const) {
      const client = await connect(handle.url, negotiation);
      await expect(client.callTool("slow", {}, { timeout: 100 })).rejects.toMatchObject({
        name: "TimeoutError",
      });
      expect((await client.callTool("add", { a: 2, b: 2 })).structured).toEqual({ sum: 4 });
    }
    // The server saw both cancellations: a closed stream (modern) and notifications/cancelled (legacy).
    await expect.poll(() => cancelled, { timeout: 5000 }).toBe(2);
  });

  it("re-initializes once when the legacy session expired (HTTP 404)", async () => {
    const handle = await serve(fixture(), "legacy");
    const client = await connect(handle.url);
    expect(client.era).toBe("legacy");
    const transport = client.transport as unknown as { sessionId: string | undefined };
    const first = transport.sessionId;
    expect(first).toBeTruthy();
    // The server forgets the session: DELETE it behind the client's back.
    const response = await fetch(handle.url, {
      method: "DELETE",
      headers: { "mcp-session-id": first!, "mcp-protocol-version": "2025-11-25" },
    });
    expect(response.status).toBeLessThan(300);
    expect((await client.callTool("add", { a: 5, b: 5 })).structured).toEqual({ sum: 10 });
    expect(transport.sessionId).toBeTruthy();
    expect(transport.sessionId).not.toBe(first);
  });

  it("sends Mcp-Param headers the server validates (x-mcp-header)", async () => {
    const server = fixture();
    server.registerTool(
      "regional",
      {
        description: "x-mcp-header",
        inputSchema: {
          type: "object",
          properties: { region: { type: "string", "x-mcp-header": "Region" }, q: { type: "string" } },
          required: ["region"],
        },
      },
      (args, ctx) => {
        const headers = (ctx.transportInfo as { headers?: Headers } | undefined)?.headers;
        return `${args.region}:${headers?.get("mcp-param-region") ?? "none"}`;
      },
    );
    const handle = await serve(server);
    const client = await connect(handle.url, "modern");
    await client.listTools();
    expect((await client.callTool("regional", { region: "Zürich", q: "x" })).content).toBe(
      `Zürich:=?base64?${Buffer.from("Zürich").toString("base64")}?=`,
    );
  });

  it("subscribes over HTTP in both eras", async () => {
    const server = fixture();
    const handle = await serve(server);
    for (const negotiation of ["modern", "legacy"] as const) {
      const client = await connect(handle.url, negotiation);
      const sub = client.subscribe({ toolsListChanged: true });
      await sub.acknowledged;
      const added = server.registerTool(`t_${negotiation}`, { description: "x" }, () => "x");
      const next = await sub.next();
      expect(next.value?.method).toBe("notifications/tools/list_changed");
      added.remove();
      await sub.close();
    }
  });
});
