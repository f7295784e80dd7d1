// Bad input that the spec answers with a JSON-RPC error: params that are not an object, a `_meta` that is
// not an object, and JSON-RPC batches after 2025-06-18 removed them. Raw frames over stdio (in-process
// streams, what a server sees on stdin/stdout) and raw POSTs to Streamable HTTP on a real loopback port.
import { PassThrough } from "node:stream";
import { type HttpServerHandle, listen } from "@mcpkit/transport-http/node";
import { createStreamTransport } from "@mcpkit/transport-stdio";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "../src/index.js";
import { meta, V } from "./helpers.js";

let server: Server | undefined;
let http: HttpServerHandle | undefined;

afterEach(async () => {
  await server?.close();
  await http?.close();
  server = undefined;
  http = undefined;
});

function fixture(): Server {
  const s = createServer({ name: "deviations", version: "1.0.0" });
  s.registerTool("echo", {}, () => "echoed");
  return s;
}

/** A raw stdio line channel to a server: write frames, read the answers one line at a time. */
async function rawStdio(s: Server) {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  await s.connect(createStreamTransport({ readable: toServer, writable: toClient }));
  const lines: unknown[] = [];
  const waiters: Array<() => void> = [];
  let buffer = "";
  toClient.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      lines.push(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
      waiters.shift()?.();
    }
  });
  const next = async (): Promise<any> => {
    if (lines.length === 0) await new Promise<void>((resolve) => waiters.push(resolve));
    return lines.shift();
  };
  return {
    send: (frame: unknown) =>
      toServer.write(`${typeof frame === "string" ? frame : JSON.stringify(frame)}\n`),
    next,
    /** Everything answered so far: a ping sent last marks the end of what came before it. */
    async drainUntilPing(id: number): Promise<any[]> {
      toServer.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`);
      const seen: any[] = [];
      for (;;) {
        const message = await next();
        if (message.id === id && "result" in message) return seen;
        seen.push(message);
      }
    },
  };
}

async function initializeStdio(channel: Awaited<ReturnType<typeof rawStdio>>, protocolVersion: string) {
  channel.send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  expect((await channel.next()).result.protocolVersion).toBe(protocolVersion);
  channel.send({ jsonrpc: "2.0", method: "notifications/initialized" });
}

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

describe("params that are not an object (-32602)", () => {
  it("[issue-14.3][stdio] legacy and modern: array params, and a _meta that is not an object", async () => {
    server = fixture();
    const modern = await rawStdio(server);
    modern.send({ jsonrpc: "2.0", id: 1, method: "ping", params: [] });
    expect((await modern.next()).error).toMatchObject({ code: -32602 });
    modern.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: "2026-07-28" } });
    expect((await modern.next()).error).toMatchObject({ code: -32602 });
    modern.send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta() } });
    expect((await modern.next()).result.tools).toHaveLength(1);

    const legacy = await rawStdio(server);
    await initializeStdio(legacy, "2025-11-25");
    legacy.send({ jsonrpc: "2.0", id: 1, method: "ping", params: [] });
    expect(await legacy.next()).toMatchObject({ id: 1, error: { code: -32602 } });
    legacy.send({ jsonrpc: "2.0", id: 2, method: "ping", params: { _meta: [] } });
    expect(await legacy.next()).toMatchObject({ id: 2, error: { code: -32602 } });
    legacy.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", _meta: 7 } });
    expect(await legacy.next()).toMatchObject({ id: 3, error: { code: -32602 } });
    legacy.send(ping(4));
    expect(await legacy.next()).toEqual({ jsonrpc: "2.0", id: 4, result: {} });
  });

  it("[issue-14.3][http] legacy and modern: array params, and a _meta that is not an object", async () => {
    server = fixture();
    const s = server;
    http = await listen({ port: 0, server: s });
    const post = async (body: unknown, headers: Record<string, string>) => {
      const response = await fetch(http!.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      // JSON, or SSE whose last non-empty data line is the answer (a priming event has empty data).
      const data = text.startsWith("{") ? text : ([...text.matchAll(/^data: (.+)$/gm)].pop()?.[1] ?? "null");
      return { status: response.status, headers: response.headers, body: JSON.parse(data) };
    };
    const modernHeaders = (method: string) => ({ "mcp-protocol-version": V, "mcp-method": method });
    const arrayParams = await post(
      { jsonrpc: "2.0", id: 1, method: "ping", params: [] },
      modernHeaders("ping"),
    );
    expect(arrayParams.body.error).toMatchObject({ code: -32602 });
    expect(arrayParams.status).toBe(400);
    const badMeta = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: "x" } },
      modernHeaders("tools/list"),
    );
    expect(badMeta.body.error).toMatchObject({ code: -32602 });

    const init = await post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      },
      {},
    );
    const session = {
      "mcp-session-id": init.headers.get("mcp-session-id")!,
      "mcp-protocol-version": "2025-11-25",
    };
    expect(session["mcp-session-id"]).toBeTruthy();
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session);
    const legacyArray = await post({ jsonrpc: "2.0", id: 2, method: "ping", params: [1] }, session);
    expect(legacyArray.body).toMatchObject({ id: 2, error: { code: -32602 } });
    const legacyMeta = await post(
      { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: [] } },
      session,
    );
    expect(legacyMeta.body).toMatchObject({ id: 3, error: { code: -32602 } });
    const fine = await post({ jsonrpc: "2.0", id: 4, method: "ping" }, session);
    expect(fine.body).toEqual({ jsonrpc: "2.0", id: 4, result: {} });
  });
});

describe("JSON-RPC batches over stdio", () => {
  const batch = [ping(11), ping(12)];

  it("[issue-14.4] before initialize, in the modern era, and after 2025-06-18+: one -32600 with id null, nothing run", async () => {
    server = fixture();
    const fresh = await rawStdio(server);
    for (const frame of [batch, [1, 2, 3], [{ jsonrpc: "2.0", method: "notifications/initialized" }]]) {
      fresh.send(frame);
      expect(await fresh.drainUntilPing(99)).toEqual([
        { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining("batch") } },
      ]);
    }
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const legacy = await rawStdio(server);
      await initializeStdio(legacy, version);
      legacy.send(batch);
      expect(await legacy.drainUntilPing(99)).toEqual([
        { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining("batch") } },
      ]);
    }
  });

  it("[issue-14.4] where 2025-03-26 was negotiated a batch is still taken apart", async () => {
    server = fixture();
    const old = await rawStdio(server);
    await initializeStdio(old, "2025-03-26");
    old.send(batch);
    const answers = await old.drainUntilPing(99);
    expect(answers.map((m) => m.id).sort()).toEqual([11, 12]);
  });
});
