// The client-side fault battery over real sockets: a server that dies mid-call, resets its SSE stream,
// accepts and never answers, sends half a frame and stalls, answers with the wrong id, or forgot the
// session (404). Each ends in a clear error or a recovery within its bound; nothing hangs (every wait is
// bounded by a call timeout or the test's own); nothing leaks (the sockets and timers counted at the
// start are all that remain once client and server closed). SIGKILL of a stdio server mid-call is in
// crash.test.ts.
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { TimeoutError, TransportError } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { listen } from "@mcpkit/transport-http/node";
import { afterEach, describe, expect, it } from "vitest";
import { type Client, createClient } from "../src/index.js";

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** Sockets and timers of this process, by kind. */
function resources(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    if (kind === "TCPSocketWrap" || kind === "TCPServerWrap" || kind === "Timeout")
      out[kind] = (out[kind] ?? 0) + 1;
  }
  return out;
}

/** Resolves once no more sockets or timers are open than at `baseline` (bounded by the test timeout). */
async function settled(baseline: Record<string, number>): Promise<void> {
  for (;;) {
    const now = resources();
    if (Object.entries(now).every(([k, v]) => v <= (baseline[k] ?? 0))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A raw HTTP server whose every request goes to `onRequest`. */
async function rawServer(
  onRequest: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server }> {
  const server = createHttpServer(onRequest);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanup.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

async function bodyOf(req: IncomingMessage): Promise<{ id?: number; method?: string }> {
  let text = "";
  for await (const c of req) text += c;
  return text ? JSON.parse(text) : {};
}

const DISCOVER = {
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {} },
  serverInfo: { name: "raw", version: "1" },
};

/** A modern raw server: discover answered properly, tools/call handed to `onCall`. */
function modernRaw(onCall: (res: ServerResponse, id: number, req: IncomingMessage) => void) {
  return rawServer(async (req, res) => {
    const message = await bodyOf(req);
    if (message.method === "server/discover") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: DISCOVER }));
      return;
    }
    onCall(res, message.id!, req);
  });
}

async function modernClient(url: string, options: { requestTimeout?: number } = {}): Promise<Client> {
  const client = createClient({ name: "faults", version: "1", versionNegotiation: "modern", ...options });
  cleanup.push(() => client.close());
  await client.connect(
    createStreamableHttpClientTransport({
      url,
      era: "modern",
      reconnect: { maxRetries: 1, initialDelay: 20 },
    }),
  );
  return client;
}

function slowServer() {
  const server = createServer({ name: "faults", version: "1" });
  server.registerTool(
    "slow",
    {},
    (_a, ctx) =>
      new Promise((_r, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason))),
  );
  server.registerTool("echo", {}, () => "ok");
  return server;
}

describe("client fault battery", () => {
  it("HTTP server killed mid-call (both eras): the call rejects with a transport error, nothing leaks", async () => {
    const baseline = resources();
    for (const era of ["modern", "legacy"] as const) {
      const server = slowServer();
      const handle = await listen({
        connect: async (t) => {
          await server.connect(t);
        },
      });
      const client = createClient({ name: "faults", version: "1", versionNegotiation: era });
      await client.connect(
        createStreamableHttpClientTransport({
          url: handle.url,
          era,
          reconnect: { maxRetries: 1, initialDelay: 20 },
        }),
      );
      const call = client.callTool("slow").then(
        () => undefined,
        (e: Error) => e,
      );
      await new Promise((r) => setTimeout(r, 50));
      // As a dying process does: every socket goes at once, the port closes.
      handle.server.closeAllConnections();
      await handle.close();
      const error = await call;
      expect(error, era).toBeInstanceOf(Error);
      expect(error?.message).not.toMatch(/\n\s+at /);
      await client.close();
    }
    await settled(baseline);
  });

  it("TCP reset mid-SSE: the call rejects clearly, and the client goes on", async () => {
    const baseline = resources();
    let calls = 0;
    const { url } = await modernRaw((res, id) => {
      calls++;
      if (calls === 1) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(
          `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n`,
        );
        setTimeout(() => res.socket?.resetAndDestroy(), 20);
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          result: { resultType: "complete", content: [{ type: "text", text: "fine" }] },
        }),
      );
    });
    const client = await modernClient(url, { requestTimeout: 5_000 });
    // The reset is named: the broken stream, with the socket's error as its cause (not a timeout).
    const broken = await client.callTool("x").catch((error: unknown) => error);
    expect(broken).toBeInstanceOf(TransportError);
    expect((broken as Error).message).toMatch(/^The response stream of request \d+ broke$/);
    expect((broken as Error).cause).toBeDefined();
    expect((await client.callTool("x")).content).toBe("fine");
    await client.close();
    for (const f of cleanup.splice(0).reverse()) await f();
    await settled(baseline);
  });

  it("a server that accepts and never answers: the call times out (TimeoutError), nothing kept", async () => {
    const baseline = resources();
    const { url } = await modernRaw(() => {
      // The request is read; no answer, ever.
    });
    const client = await modernClient(url);
    const error = await client.callTool("x", {}, { timeout: 200 }).catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    await client.close();
    for (const f of cleanup.splice(0).reverse()) await f();
    await settled(baseline);
  });

  it("half a frame, then a stall: the call times out, the half frame is dropped", async () => {
    const { url } = await modernRaw((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('event: message\ndata: {"jsonrpc":"2.0","id":');
    });
    const client = await modernClient(url);
    const error = await client.callTool("x", {}, { timeout: 200 }).catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it("an answer with the wrong id is not taken for the call: the call times out, the session goes on", async () => {
    let n = 0;
    const { url } = await modernRaw((res, id) => {
      n++;
      res.writeHead(200, { "content-type": "application/json" });
      const result = { resultType: "complete", content: [{ type: "text", text: `answer ${n}` }] };
      res.end(JSON.stringify({ jsonrpc: "2.0", id: n === 1 ? 987654 : id, result }));
    });
    const client = await modernClient(url);
    const first = await client.callTool("x", {}, { timeout: 300 }).then(
      (r) => r,
      (e: Error) => e,
    );
    // Either a clear error now or a timeout, never another request's answer.
    expect(first).toBeInstanceOf(Error);
    expect((await client.callTool("x", {}, { timeout: 2_000 })).content).toBe("answer 2");
  });

  it("a legacy session the server forgot (404): the client initializes again once and the call succeeds", async () => {
    const server = slowServer();
    const handle = await listen({
      connect: async (t) => {
        await server.connect(t);
      },
    });
    cleanup.push(() => handle.close());
    const client = createClient({ name: "faults", version: "1", versionNegotiation: "legacy" });
    cleanup.push(() => client.close());
    const transport = createStreamableHttpClientTransport({ url: handle.url, era: "legacy" });
    await client.connect(transport);
    expect((await client.callTool("echo")).content).toBe("ok");
    expect(handle.handler.sessionCount).toBe(1);
    // The server restarts its sessions (as an idle expiry or a redeploy does): DELETE on its side.
    const sid = (transport as { sessionId?: string }).sessionId!;
    const deleted = await fetch(handle.url, {
      method: "DELETE",
      headers: { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" },
    });
    expect(deleted.status).toBe(200);
    expect((await client.callTool("echo")).content).toBe("ok");
    expect(handle.handler.sessionCount).toBe(1);
  });
});
