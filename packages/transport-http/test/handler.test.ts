import { SUPPORTED_PROTOCOL_VERSIONS } from "@mcpkit/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { createStreamableHttpHandler, type StreamableHttpHandler } from "../src/index.js";
import { createTestApp } from "./app.js";
import { LEGACY, MODERN, rawInitialize, sseMessages } from "./support.js";

const URL_ = "http://127.0.0.1/mcp";
const ACCEPT = "application/json, text/event-stream";
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};

const handlers: StreamableHttpHandler[] = [];
afterEach(async () => {
  for (const h of handlers.splice(0)) await h.close();
});

function setup(extra: Parameters<typeof createTestApp>[0] = {}) {
  const app = createTestApp(extra);
  const handler = createStreamableHttpHandler(app.options);
  handlers.push(handler);
  const doFetch = (input: string | URL | Request, init?: RequestInit) =>
    handler.fetch(new Request(input, init));
  return { app, handler, doFetch };
}

function post(body: unknown, headers: Record<string, string> = {}, init: RequestInit = {}): Request {
  return new Request(URL_, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
  });
}

function modern(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return post(
    { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } },
    { "mcp-protocol-version": MODERN, "mcp-method": method, ...headers },
  );
}

async function json(response: Response): Promise<any> {
  return JSON.parse(await response.text());
}

describe("request checks", () => {
  it("406 when Accept does not allow both JSON and SSE", async () => {
    const { handler } = setup();
    const r = await handler.fetch(
      post({ jsonrpc: "2.0", id: 1, method: "echo" }, { accept: "application/json" }),
    );
    expect(r.status).toBe(406);
    expect((await json(r)).error.code).toBe(-32600);
  });

  it("415 when Content-Type is not JSON", async () => {
    const { handler } = setup();
    const r = await handler.fetch(post("{}", { "content-type": "text/plain" }));
    expect(r.status).toBe(415);
  });

  it("413 with -32600 for a declared body over the cap, before reading it", async () => {
    const { handler } = setup({ maxBodyBytes: 1000 });
    const r = await handler.fetch(
      post({ jsonrpc: "2.0", id: 1, method: "echo", params: { x: "y".repeat(2000) } }),
    );
    expect(r.status).toBe(413);
    expect((await json(r)).error.code).toBe(-32600);
  });

  it("413 for a streamed body without Content-Length that grows over the cap", async () => {
    const { handler } = setup({ maxBodyBytes: 1000 });
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode("x".repeat(400)));
        if (pulled > 100) controller.close();
      },
    });
    const r = await handler.fetch(
      new Request(URL_, {
        method: "POST",
        headers: { "content-type": "application/json", accept: ACCEPT },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(r.status).toBe(413);
    // It stopped reading soon after the cap.
    expect(pulled).toBeLessThan(10);
  });

  it("400 -32700 for malformed JSON, 400 -32600 for a batch or a non-message", async () => {
    const { handler } = setup();
    const bad = await handler.fetch(post("{not json"));
    expect(bad.status).toBe(400);
    expect(await json(bad)).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } });
    const batch = await handler.fetch(post([{ jsonrpc: "2.0", id: 1, method: "echo" }]));
    expect(batch.status).toBe(400);
    expect((await json(batch)).error.code).toBe(-32600);
    const junk = await handler.fetch(post({ hello: 1, id: 5 }));
    expect(junk.status).toBe(400);
    expect(await json(junk)).toMatchObject({ id: 5, error: { code: -32600 } });
  });

  it("405 for other methods, with Allow", async () => {
    const { handler } = setup();
    const r = await handler.fetch(new Request(URL_, { method: "PUT" }));
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toContain("POST");
  });

  it("a throwing connect gives a generic 500, never the exception text", async () => {
    const errors: Error[] = [];
    const handler = createStreamableHttpHandler({
      connect() {
        throw new Error("secret /etc/passwd detail");
      },
      onError: (e) => errors.push(e),
    });
    handlers.push(handler);
    const r = await handler.fetch(modern("tools/list"));
    expect(r.status).toBe(500);
    const text = await r.text();
    expect(text).not.toContain("passwd");
    expect(JSON.parse(text).error.code).toBe(-32603);
    expect(errors[0]?.message).toContain("passwd");
  });

  it("503 after close()", async () => {
    const { handler } = setup();
    await handler.close();
    expect((await handler.fetch(modern("echo"))).status).toBe(503);
  });
});

describe("DNS-rebinding protection: the Origin and Host matrix", () => {
  const origins: Array<[string, number]> = [
    // Loopback origins pass on the request's own port only (here none: port 80), by any loopback name.
    ["http://localhost:3000", 403],
    ["http://localhost", 200],
    ["http://127.0.0.1", 200],
    ["http://[::1]:8080", 403],
    ["http://[::1]", 200],
    ["https://evil.example.com", 403],
    ["http://localhost.evil.example.com", 403],
    ["null", 403],
    ["https://app.example.com", 200],
  ];
  for (const [origin, status] of origins) {
    it(`Origin ${origin} → ${status}`, async () => {
      const { handler } = setup({ allowedOrigins: ["https://app.example.com"] });
      const r = await handler.fetch(modern("echo", {}, { origin }));
      expect(r.status).toBe(status);
    });
  }

  const hosts: Array<[string, number]> = [
    ["localhost:1234", 200],
    ["127.0.0.1", 200],
    ["[::1]:9", 200],
    ["evil.example.com", 403],
    ["127.0.0.1.evil.example.com:80", 403],
  ];
  for (const [host, status] of hosts) {
    it(`Host ${host} → ${status} when loopback hosts are required`, async () => {
      const { handler } = setup({ allowedHosts: ["localhost", "127.0.0.1", "[::1]"] });
      const r = await handler.fetch(modern("echo", {}, { host }));
      expect(r.status).toBe(status);
    });
  }
});

describe("legacy sessions", () => {
  it("issues a 128-bit visible-ASCII session id on initialize and requires it afterwards", async () => {
    const { handler, doFetch, app } = setup({ preferJson: true });
    const { sessionId, response, body } = await rawInitialize(doFetch, URL_);
    expect(response.status).toBe(200);
    expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(body).result.protocolVersion).toBe(LEGACY);
    expect(app.log.connections).toEqual([expect.objectContaining({ era: "legacy", sessionId })]);

    const without = await handler.fetch(post({ jsonrpc: "2.0", id: 2, method: "echo" }));
    expect(without.status).toBe(400);
    const unknown = await handler.fetch(
      post({ jsonrpc: "2.0", id: 2, method: "echo" }, { "mcp-session-id": "nope" }),
    );
    expect(unknown.status).toBe(404);
    const ok = await handler.fetch(
      post({ jsonrpc: "2.0", id: 2, method: "echo", params: { a: 1 } }, { "mcp-session-id": sessionId }),
    );
    expect(ok.status).toBe(200);
    expect(await json(ok)).toEqual({ jsonrpc: "2.0", id: 2, result: { a: 1 } });
    // No MCP-Protocol-Version header: 2025-03-26 is assumed.
    expect(app.log.infos[0]).toMatchObject({ protocolVersion: "2025-03-26", sessionId });
  });

  it("400 for an unsupported MCP-Protocol-Version in a session", async () => {
    const { handler, doFetch } = setup();
    const { sessionId } = await rawInitialize(doFetch, URL_);
    const r = await handler.fetch(
      post(
        { jsonrpc: "2.0", id: 2, method: "echo" },
        { "mcp-session-id": sessionId, "mcp-protocol-version": "1999-01-01" },
      ),
    );
    expect(r.status).toBe(400);
  });

  it("202 for notifications and for responses from the client", async () => {
    const { handler, doFetch, app } = setup();
    const { sessionId } = await rawInitialize(doFetch, URL_);
    const seen = app.nextNotification();
    const n = await handler.fetch(
      post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": sessionId }),
    );
    expect(n.status).toBe(202);
    expect(await n.text()).toBe("");
    await seen;
    expect(app.log.notifications[0]).toMatchObject({ method: "notifications/initialized", sessionId });
    const r = await handler.fetch(
      post({ jsonrpc: "2.0", id: 99, result: {} }, { "mcp-session-id": sessionId }),
    );
    expect(r.status).toBe(202);
  });

  it("DELETE ends the session: later requests get 404 and the app's transport closes", async () => {
    const { handler, doFetch, app } = setup();
    const { sessionId } = await rawInitialize(doFetch, URL_);
    expect(handler.sessionCount).toBe(1);
    const del = await handler.fetch(
      new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": sessionId } }),
    );
    expect(del.status).toBe(200);
    await app.log.peers[0]!.closed;
    expect(handler.sessionCount).toBe(0);
    const after = await handler.fetch(
      post({ jsonrpc: "2.0", id: 3, method: "echo" }, { "mcp-session-id": sessionId }),
    );
    expect(after.status).toBe(404);
  });

  it("an idle session expires (its transport closes) and then answers 404", async () => {
    const { handler, doFetch, app } = setup({ sessionIdleTimeout: 50 });
    const { sessionId } = await rawInitialize(doFetch, URL_);
    await app.log.peers[0]!.closed;
    const r = await handler.fetch(
      post({ jsonrpc: "2.0", id: 3, method: "echo" }, { "mcp-session-id": sessionId }),
    );
    expect(r.status).toBe(404);
  });

  it("a failed initialize keeps no session", async () => {
    const { handler, app } = setup();
    const r = await handler.fetch(
      post({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "1999-01-01", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      }),
    );
    expect(r.headers.get("mcp-session-id")).toBeNull();
    expect((await json(r)).error.code).toBe(-32602);
    await app.log.peers[0]!.closed;
    expect(handler.sessionCount).toBe(0);
  });

  it("SSE replies start with a priming event (id, retry, empty data) for 2025-11-25, none for 2025-03-26", async () => {
    const { handler, doFetch } = setup({ retryInterval: 1234 });
    const { sessionId } = await rawInitialize(doFetch, URL_);
    const r = await handler.fetch(
      post(
        { jsonrpc: "2.0", id: 2, method: "notify-then-answer" },
        { "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY },
      ),
    );
    expect(r.headers.get("content-type")).toBe("text/event-stream");
    const text = await r.text();
    const [priming, ...rest] = text.split("\n\n");
    expect(priming).toMatch(/^id: \S+\nretry: 1234\ndata: $/);
    expect(sseMessages(rest.join("\n\n"))).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } },
      { jsonrpc: "2.0", id: 2, result: { done: true } },
    ]);
    const old = await handler.fetch(
      post(
        { jsonrpc: "2.0", id: 3, method: "echo" },
        { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-03-26" },
      ),
    );
    expect(await old.text()).not.toContain("retry:");
  });

  it("GET needs Accept text/event-stream and a session; a second standalone GET gets 409", async () => {
    const { handler, doFetch } = setup();
    const { sessionId } = await rawInitialize(doFetch, URL_);
    const noAccept = await handler.fetch(new Request(URL_, { headers: { "mcp-session-id": sessionId } }));
    expect(noAccept.status).toBe(406);
    const noSession = await handler.fetch(new Request(URL_, { headers: { accept: "text/event-stream" } }));
    expect(noSession.status).toBe(400);
    const controller = new AbortController();
    const first = await handler.fetch(
      new Request(URL_, {
        headers: { accept: "text/event-stream", "mcp-session-id": sessionId },
        signal: controller.signal,
      }),
    );
    expect(first.status).toBe(200);
    const second = await handler.fetch(
      new Request(URL_, { headers: { accept: "text/event-stream", "mcp-session-id": sessionId } }),
    );
    expect(second.status).toBe(409);
    await first.body!.cancel();
  });
});

describe("modern (2026-07-28) requests", () => {
  it("answers a request with a JSON body when preferJson, and hands the app a one-shot transport", async () => {
    const { handler, app } = setup({ preferJson: true });
    const r = await handler.fetch(modern("echo", { a: 1 }, { "mcp-param-region": "eu" }));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(await json(r)).toEqual({ jsonrpc: "2.0", id: 1, result: { a: 1, _meta: META } });
    expect(app.log.connections).toEqual([expect.objectContaining({ era: "modern" })]);
    expect(app.log.infos[0]!.headers.get("mcp-param-region")).toBe("eu");
    expect(app.log.infos[0]!.protocolVersion).toBe(MODERN);
    await app.log.peers[0]!.closed;
  });

  it("streams notifications then the response as SSE, with no event ids", async () => {
    const { handler } = setup();
    const r = await handler.fetch(modern("notify-then-answer"));
    expect(r.headers.get("content-type")).toBe("text/event-stream");
    expect(r.headers.get("x-accel-buffering")).toBe("no");
    const text = await r.text();
    expect(text).not.toContain("id:");
    expect(sseMessages(text)).toEqual([
      expect.objectContaining({ method: "notifications/message" }),
      { jsonrpc: "2.0", id: 1, result: { done: true } },
    ]);
  });

  it("404 with -32601 (keeping the id) for an unknown method", async () => {
    const { handler } = setup();
    const r = await handler.fetch(modern("initialize-me"));
    expect(r.status).toBe(404);
    expect(await json(r)).toMatchObject({ id: 1, error: { code: -32601 } });
  });

  it("a modern `initialize` (modern header and _meta) is a modern request, not a new session", async () => {
    const app = createTestApp();
    // This app, like a modern server, has no `initialize` handler for modern requests.
    const handler = createStreamableHttpHandler({
      ...app.options,
      connect: (t, info) =>
        info.era === "modern" ? app.options.connect(t, info) : Promise.reject(new Error("no")),
    });
    handlers.push(handler);
    const r = await handler.fetch(modern("initialize", { protocolVersion: MODERN }));
    expect(r.headers.get("mcp-session-id")).toBeNull();
    expect(app.log.connections.map((c) => c.era)).toEqual(["modern"]);
    expect(handler.sessionCount).toBe(0);
  });

  it("answers a request without _meta clientCapabilities 400 -32602 itself; the app's -32602 and other codes are 200", async () => {
    const { handler, app } = setup();
    const noCaps = { "io.modelcontextprotocol/protocolVersion": MODERN };
    const r = await handler.fetch(
      post(
        { jsonrpc: "2.0", id: 1, method: "echo", params: { _meta: noCaps } },
        { "mcp-protocol-version": MODERN, "mcp-method": "echo" },
      ),
    );
    expect(r.status).toBe(400);
    expect(await json(r)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32602, message: 'Missing _meta["io.modelcontextprotocol/clientCapabilities"]' },
    });
    expect(app.log.infos).toHaveLength(0);
    // Statuses follow from the code alone: an app's -32602 (bad arguments) is 200, and its data untouched.
    const invalid = await handler.fetch(modern("invalid"));
    expect(invalid.status).toBe(200);
    expect(await json(invalid)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32602, message: "Invalid arguments", data: { path: "text" } },
    });
    const other = await handler.fetch(modern("fail"));
    expect(other.status).toBe(200);
  });

  it("400 -32022 with { supported, requested } for an unsupported version (every version the endpoint speaks)", async () => {
    const unsupported = (eras?: "modern") => {
      const { handler } = setup(eras ? { eras } : {});
      return handler.fetch(
        post(
          {
            jsonrpc: "2.0",
            id: 1,
            method: "echo",
            params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
          },
          { "mcp-protocol-version": "2099-01-01", "mcp-method": "echo" },
        ),
      );
    };
    const r = await unsupported();
    expect(r.status).toBe(400);
    expect(await json(r)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32022,
        message: expect.any(String),
        data: { supported: [...SUPPORTED_PROTOCOL_VERSIONS], requested: "2099-01-01" },
      },
    });
    const modernOnly = await json(await unsupported("modern"));
    expect(modernOnly.error.data).toEqual({ supported: [MODERN], requested: "2099-01-01" });
  });

  it("[issue-14.1] an MCP-Protocol-Version header that disagrees with _meta is -32020, even a legacy one", async () => {
    const { handler } = setup();
    for (const header of [LEGACY, "2099-01-01"]) {
      const r = await handler.fetch(modern("echo", {}, { "mcp-protocol-version": header }));
      expect(r.status).toBe(400);
      const body = await json(r);
      expect(body.error.code).toBe(-32020);
      expect(body.error.message).toBe(
        `Header mismatch: MCP-Protocol-Version ${header} differs from _meta protocolVersion ${MODERN}`,
      );
    }
  });

  it("[issue-14.2] an Mcp-Method header in the =?base64?…?= form is decoded before it is compared", async () => {
    const { handler } = setup();
    const encoded = `=?base64?${btoa("echo")}?=`;
    const ok = await handler.fetch(modern("echo", { text: "hi" }, { "mcp-method": encoded }));
    expect(ok.status).toBe(200);
    const wrong = await handler.fetch(
      modern("echo", { text: "hi" }, { "mcp-method": `=?base64?${btoa("other")}?=` }),
    );
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).error.code).toBe(-32020);
  });

  it("[issue-14.5] a request with neither era's markers is told what each era needs", async () => {
    const body = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const both = await json(await setup().handler.fetch(post(body)));
    expect(both.error.code).toBe(-32600);
    expect(both.error.message).toContain("MCP-Protocol-Version header");
    expect(both.error.message).toContain("_meta");
    expect(both.error.message).toContain("initialize");
    const legacyOnly = await json(await setup({ eras: "legacy" }).handler.fetch(post(body)));
    expect(legacyOnly.error.message).toBe(
      "Bad Request: Mcp-Session-Id header is required (send initialize first to open a session)",
    );
  });

  it("a modern-only server answers initialize with -32022 naming its versions", async () => {
    const { handler } = setup({ eras: "modern" });
    const r = await handler.fetch(
      post({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: LEGACY, capabilities: {} },
      }),
    );
    expect(r.status).toBe(400);
    expect((await json(r)).error).toMatchObject({
      code: -32022,
      data: { supported: [MODERN], requested: LEGACY },
    });
    expect(
      (await handler.fetch(new Request(URL_, { headers: { accept: "text/event-stream" } }))).status,
    ).toBe(405);
    expect((await handler.fetch(new Request(URL_, { method: "DELETE" }))).status).toBe(405);
  });

  it("400 -32602 when _meta has no protocol version", async () => {
    const { handler } = setup();
    const r = await handler.fetch(
      post(
        { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
        { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" },
      ),
    );
    expect(r.status).toBe(400);
    const body = await json(r);
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toContain("io.modelcontextprotocol/protocolVersion");
  });

  const mismatches: Array<[string, Request]> = [
    [
      "header version ≠ _meta version",
      post(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "echo",
          params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": LEGACY } },
        },
        { "mcp-protocol-version": MODERN, "mcp-method": "echo" },
      ),
    ],
    [
      "missing Mcp-Method",
      post(
        { jsonrpc: "2.0", id: 1, method: "echo", params: { _meta: META } },
        { "mcp-protocol-version": MODERN },
      ),
    ],
    ["Mcp-Method ≠ method", modern("tools/list", {}, { "mcp-method": "prompts/list" })],
    ["Mcp-Method differs in case", modern("tools/list", {}, { "mcp-method": "TOOLS/LIST" })],
    ["missing Mcp-Name", modern("tools/call", { name: "echo" })],
    ["Mcp-Name ≠ params.name", modern("tools/call", { name: "echo" }, { "mcp-name": "other" })],
    [
      "Mcp-Name with bad base64",
      modern("tools/call", { name: "Hello" }, { "mcp-name": "=?base64?SGVs!!!bG8=?=" }),
    ],
  ];
  for (const [name, request] of mismatches) {
    it(`400 -32020 HeaderMismatch: ${name}`, async () => {
      const { handler } = setup();
      const r = await handler.fetch(request);
      expect(r.status).toBe(400);
      expect((await json(r)).error.code).toBe(-32020);
    });
  }

  it("accepts lower/upper-case header names, trimmed values and a base64 Mcp-Name", async () => {
    const { handler } = setup({ preferJson: true });
    const lower = await handler.fetch(modern("echo", {}, { "mcp-method": "echo" }));
    expect(lower.status).toBe(200);
    const upper = await handler.fetch(
      post(
        { jsonrpc: "2.0", id: 1, method: "echo", params: { _meta: META } },
        { "MCP-PROTOCOL-VERSION": MODERN, "MCP-METHOD": "echo" },
      ),
    );
    expect(upper.status).toBe(200);
    // tools/call reaches the app (which has no such method: 404), so the headers were accepted.
    const spaced = await handler.fetch(modern("tools/call", { name: "echo" }, { "mcp-name": "  echo  " }));
    expect(spaced.status).toBe(404);
    const encoded = await handler.fetch(
      modern(
        "tools/call",
        { name: "héllo" },
        { "mcp-name": `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode("héllo")))}?=` },
      ),
    );
    expect(encoded.status).toBe(404);
  });

  it("202 for a notification", async () => {
    const { handler } = setup();
    const r = await handler.fetch(
      post({ jsonrpc: "2.0", method: "notifications/whatever" }, { "mcp-protocol-version": MODERN }),
    );
    expect(r.status).toBe(202);
  });

  it("closing the response stream aborts the request's handler signal", async () => {
    const { handler, app } = setup();
    const controller = new AbortController();
    const pending = handler.fetch(
      new Request(URL_, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: ACCEPT,
          "mcp-protocol-version": MODERN,
          "mcp-method": "slow",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slow", params: { _meta: META } }),
        signal: controller.signal,
      }),
    );
    // Wait until the handler holds the request.
    await app.entered("slow");
    controller.abort();
    await app.log.peers[0]!.closed;
    expect(app.log.aborted).toEqual(["slow"]);
    await pending;
  });

  it("keeps a subscriptions/listen stream open until the client closes it, then aborts the handler", async () => {
    const { handler, app } = setup();
    const r = await handler.fetch(modern("listen"));
    expect(r.headers.get("content-type")).toBe("text/event-stream");
    const reader = r.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("list_changed")) text += (await reader.read()).value ?? "";
    expect(sseMessages(text).map((m: any) => m.method)).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
    ]);
    await reader.cancel();
    await app.log.peers[0]!.closed;
    expect(app.log.aborted).toEqual(["listen"]);
  });
});

describe("legacy session isolation and resumption", () => {
  async function openGet(
    doFetch: (i: string, init?: RequestInit) => Promise<Response>,
    sessionId: string,
    last?: string,
  ) {
    const headers: Record<string, string> = {
      accept: "text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": LEGACY,
    };
    if (last) headers["last-event-id"] = last;
    const r = await doFetch(URL_, { headers });
    return r.body!.pipeThrough(new TextDecoderStream()).getReader();
  }

  async function readUntil(reader: ReadableStreamDefaultReader<string>, pattern: RegExp): Promise<string> {
    let text = "";
    while (!pattern.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    return text;
  }

  it("two sessions never see each other's messages, nor resume each other's streams", async () => {
    const { doFetch, app } = setup();
    const a = await rawInitialize(doFetch, URL_);
    const b = await rawInitialize(doFetch, URL_);
    expect(a.sessionId).not.toBe(b.sessionId);
    const getA = await openGet(doFetch, a.sessionId);
    const getB = await openGet(doFetch, b.sessionId);
    const [peerA, peerB] = app.log.peers;
    await peerA!.notify("for-a", { n: 1 });
    await peerB!.notify("for-b", { n: 2 });
    const textA = await readUntil(getA, /for-a/);
    const textB = await readUntil(getB, /for-b/);
    expect(textA).not.toContain("for-b");
    expect(textB).not.toContain("for-a");
    // B presents an event id of A's stream: nothing of A's is replayed to B.
    const idOfA = /id: (\S+)\ndata: \{/.exec(textA)![1]!;
    await getB.cancel();
    const resumedB = await openGet(doFetch, b.sessionId, idOfA);
    await peerB!.notify("for-b-again", {});
    const more = await readUntil(resumedB, /for-b-again/);
    expect(more).not.toContain("for-a");
    await resumedB.cancel();
    await getA.cancel();
  });

  it("a dropped GET stream resumes with Last-Event-ID and loses nothing", async () => {
    const { doFetch, app } = setup();
    const { sessionId } = await rawInitialize(doFetch, URL_);
    const get = await openGet(doFetch, sessionId);
    const peer = app.log.peers[0]!;
    for (let i = 0; i < 5; i++) await peer.notify("tick", { i });
    const first = await readUntil(get, /"i":4/);
    const last = [...first.matchAll(/id: (\S+)/g)].at(-1)![1]!;
    await get.cancel();
    for (let i = 5; i < 10; i++) await peer.notify("tick", { i });
    const resumed = await openGet(doFetch, sessionId, last);
    const rest = await readUntil(resumed, /"i":9/);
    await resumed.cancel();
    const ticks = [...sseMessages(first), ...sseMessages(rest)].map((m: any) => m.params.i);
    expect(ticks).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
