// The server over the real transports: stdio framing over Node streams and Streamable HTTP on a real
// loopback port, both eras. The transports are dev dependencies only; the server never imports them.
import { PassThrough } from "node:stream";
import { createPeer, type Peer, type Transport } from "@mcpkit/jsonrpc";
import { MetaKey, modernRequestHeaders } from "@mcpkit/protocol";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { type HttpServerHandle, listen } from "@mcpkit/transport-http/node";
import { createStreamTransport } from "@mcpkit/transport-stdio";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "../src/index.js";
import { meta } from "./helpers.js";

let server: Server | undefined;
let http: HttpServerHandle | undefined;
const peers: Peer[] = [];

afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close()));
  await server?.close();
  await http?.close();
  server = undefined;
  http = undefined;
});

function fixture(): Server {
  const s = createServer({ name: "transport-test", version: "1.0.0" });
  s.registerTool(
    "regional",
    {
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" } },
        required: ["region"],
      },
    },
    (args) => `region ${String(args.region)}`,
  );
  s.registerTool("ask", {}, async (_a, ctx) => {
    const r = await ctx.elicit(
      { message: "name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
      { key: "who" },
    );
    return `hi ${String(r.content?.name)} (${ctx.era})`;
  });
  s.registerResource("test://r", { name: "r" }, () => "R");
  return s;
}

/** A stdio pair over in-process streams: what a server sees on process.stdin/stdout. */
async function stdioClient(s: Server, maxFrameBytes?: number) {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const serverSide = createStreamTransport({
    readable: toServer,
    writable: toClient,
    ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }),
  });
  await s.connect(serverSide);
  const peer = createPeer(createStreamTransport({ readable: toClient, writable: toServer }));
  peers.push(peer);
  await peer.start();
  return { peer, toServer };
}

describe("stdio framing", () => {
  it("[transport:stdio] one stdio connection serves modern requests and a legacy session", async () => {
    server = fixture();
    const { peer } = await stdioClient(server);
    peer.onRequest("elicitation/create", () => ({ action: "accept", content: { name: "Leg" } }));
    const discover = (await peer.request("server/discover", { _meta: meta() })) as any;
    expect(discover.supportedVersions[0]).toBe("2026-07-28");
    const modern = (await peer.request("tools/call", {
      _meta: meta({ elicitation: {} }),
      name: "ask",
      arguments: {},
    })) as any;
    expect(modern.resultType).toBe("input_required");
    await peer.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: {} },
      clientInfo: { name: "c", version: "1" },
    });
    await peer.notify("notifications/initialized");
    expect(await peer.request("tools/call", { name: "ask", arguments: {} })).toEqual({
      content: [{ type: "text", text: "hi Leg (legacy)" }],
    });
  });

  it("[robustness:over-cap] an over-cap frame is answered -32600 with its id and the connection lives on", async () => {
    server = fixture();
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    await server.connect(
      createStreamTransport({ readable: toServer, writable: toClient, maxFrameBytes: 1024 }),
    );
    const lines: any[] = [];
    let buffered = "";
    let wanted = 0;
    let onLine: (() => void) | undefined;
    toClient.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let nl = buffered.indexOf("\n");
      while (nl >= 0) {
        lines.push(JSON.parse(buffered.slice(0, nl)));
        buffered = buffered.slice(nl + 1);
        nl = buffered.indexOf("\n");
      }
      if (lines.length >= wanted) onLine?.();
    });
    const until = (n: number) =>
      new Promise<void>((resolve) => {
        wanted = n;
        onLine = resolve;
        if (lines.length >= n) resolve();
      });
    const big = {
      jsonrpc: "2.0",
      id: 999,
      method: "tools/call",
      params: { name: "ask", arguments: { pad: "x".repeat(4000) } },
    };
    toServer.write(`${JSON.stringify(big)}\n`);
    await until(1);
    expect(lines[0]).toMatchObject({ jsonrpc: "2.0", id: 999, error: { code: -32600 } });
    toServer.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1000, method: "resources/read", params: { _meta: meta(), uri: "test://r" } })}\n`,
    );
    await until(2);
    expect(lines[1]).toMatchObject({ id: 1000, result: { contents: [{ text: "R" }] } });
    toServer.end();
  });
});

describe("Streamable HTTP on 127.0.0.1", () => {
  async function start(): Promise<string> {
    server = fixture();
    const s = server;
    http = await listen({ port: 0, server: s });
    return http.url;
  }

  it("[transport:http-legacy] a legacy session: initialize, server-to-client elicitation on the request's stream", async () => {
    const url = await start();
    const peer = createPeer(createStreamableHttpClientTransport({ url, era: "legacy" }));
    peers.push(peer);
    peer.onRequest("elicitation/create", (params: { message: string }) => ({
      action: "accept",
      content: { name: params.message },
    }));
    await peer.start();
    const init = (await peer.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: {} },
      clientInfo: { name: "c", version: "1" },
    })) as any;
    expect(init.protocolVersion).toBe("2025-11-25");
    await peer.notify("notifications/initialized");
    expect(await peer.request("tools/call", { name: "ask", arguments: {} })).toEqual({
      content: [{ type: "text", text: "hi name? (legacy)" }],
    });
    expect(server!.connectionCount).toBe(1);
  });

  it("[transport:http-modern] modern requests through server.handle: MRTR, Mcp-Param headers checked", async () => {
    const url = await start();
    const peer = createPeer(
      modernHeaders(
        createStreamableHttpClientTransport({ url, era: "modern", protocolVersion: "2026-07-28" }),
      ),
    );
    peers.push(peer);
    await peer.start();
    const r1 = (await peer.request("tools/call", {
      _meta: meta({ elicitation: {} }),
      name: "ask",
      arguments: {},
    })) as any;
    expect(r1.inputRequests.who.method).toBe("elicitation/create");
    const r2 = (await peer.request("tools/call", {
      _meta: meta({ elicitation: {} }),
      name: "ask",
      arguments: {},
      requestState: r1.requestState,
      inputResponses: { who: { action: "accept", content: { name: "Mo" } } },
    })) as any;
    expect(r2.content[0].text).toBe("hi Mo (modern)");
    expect(
      (
        (await peer.request(
          "tools/call",
          { _meta: meta(), name: "regional", arguments: { region: "eu" } },
          { headers: { "mcp-param-region": "eu" } },
        )) as any
      ).content[0].text,
    ).toBe("region eu");
    // A header that disagrees with the body: 400 with -32020.
    const raw = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "regional",
        "mcp-param-region": "us",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { _meta: meta(), name: "regional", arguments: { region: "eu" } },
      }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ id: 7, error: { code: -32020 } });
    // A modern request makes no connection.
    expect(server!.connectionCount).toBe(0);
  });

  it("[transport:http-listen] subscriptions/listen streams the ack, tagged list_changed, and a graceful end", async () => {
    const url = await start();
    const notes: Array<{ method: string; params: any }> = [];
    const peer = createPeer(
      modernHeaders(
        createStreamableHttpClientTransport({ url, era: "modern", protocolVersion: "2026-07-28" }),
      ),
    );
    peers.push(peer);
    let changed!: () => void;
    const gotChange = new Promise<void>((r) => (changed = r));
    let acked!: () => void;
    const gotAck = new Promise<void>((r) => (acked = r));
    peer.onAnyNotification((params, ctx) => {
      notes.push({ method: ctx.method, params });
      if (ctx.method === "notifications/subscriptions/acknowledged") acked();
      if (ctx.method === "notifications/tools/list_changed") changed();
    });
    await peer.start();
    const listen = peer.request(
      "subscriptions/listen",
      { _meta: meta(), notifications: { toolsListChanged: true } },
      { timeout: 20_000 },
    );
    await gotAck;
    server!.registerTool("later", {}, () => "x");
    await gotChange;
    await server!.close();
    const result = (await listen) as any;
    expect(result.resultType).toBe("complete");
    const id = result._meta["io.modelcontextprotocol/subscriptionId"];
    expect(notes.map((n) => n.method)).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
    ]);
    expect(notes.every((n) => n.params._meta["io.modelcontextprotocol/subscriptionId"] === id)).toBe(true);
  });

  it("[transport:http-cancel] closing a modern request's stream aborts the handler", async () => {
    server = fixture();
    let started!: () => void;
    const didStart = new Promise<void>((r) => (started = r));
    let aborted!: () => void;
    const didAbort = new Promise<void>((r) => (aborted = r));
    server.registerTool("hang", {}, (_a, ctx) => {
      started();
      return new Promise((_resolve, reject) =>
        ctx.signal.addEventListener("abort", () => {
          aborted();
          reject(ctx.signal.reason);
        }),
      );
    });
    const s = server;
    http = await listen({ port: 0, server: s });
    const peer = createPeer(
      modernHeaders(
        createStreamableHttpClientTransport({ url: http.url, era: "modern", protocolVersion: "2026-07-28" }),
      ),
    );
    peers.push(peer);
    await peer.start();
    const controller = new AbortController();
    const call = peer
      .request("tools/call", { _meta: meta(), name: "hang", arguments: {} }, { signal: controller.signal })
      .catch((e) => e);
    await didStart;
    controller.abort(new Error("user gave up"));
    await didAbort;
    expect(((await call) as Error).message).toBe("user gave up");
  });
});

/**
 * A bare peer passes each modern request's headers itself (as @mcpkit/client does): the transport
 * computes none; the headers a send gives win over the computed ones. Added by modern-client (issue 26:
 * the HTTP client transport no longer fills them in).
 */
function modernHeaders(inner: Transport): Transport {
  return {
    get traits() {
      return inner.traits;
    },
    start: (s) => inner.start(s),
    close: (r) => inner.close(r),
    send(message, opts) {
      const version = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta?.[
        MetaKey.ProtocolVersion
      ];
      if (!("id" in message) || !("method" in message)) return inner.send(message, opts);
      if (typeof version !== "string") return inner.send(message, opts);
      return inner.send(message, {
        ...opts,
        headers: { ...modernRequestHeaders(version, message.method, message.params), ...opts?.headers },
      });
    },
  };
}
