// Issue 25.1: a server span's `mcp.session.id` must not be a key to the session. Anyone who reads the
// traces could otherwise send it back as `Mcp-Session-Id`. A real server over a loopback port, a legacy
// session opened with raw fetch, the real OpenTelemetry SDK recording the server's spans in memory.
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, serve } from "../src/index.js";
import { setUpOpenTelemetry } from "./fixtures/otel-setup.js";

const SERVER = 1;
const LEGACY = "2025-11-25";
const otel = setUpOpenTelemetry();

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
});

/** Opens a legacy session on a fresh server, calls a tool in it; returns the session id and the server's spans. */
async function sessionSpans(rawSessionId?: boolean) {
  otel.memory.reset();
  const telemetry = rawSessionId === undefined ? { api: otel.api } : { api: otel.api, rawSessionId };
  const server = createServer({ name: "spans", version: "1.0.0", telemetry });
  server.registerTool("greet", { description: "Greets" }, () => "hello");
  const running = await serve(server, { transport: "http", port: 0, block: false });
  closers.push(() => running.close());
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": LEGACY,
  };
  const init = await fetch(running.url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  await init.text();
  const sessionId = init.headers.get("mcp-session-id")!;
  expect(sessionId).toBeTruthy();
  const session = { ...headers, "mcp-session-id": sessionId };
  await (
    await fetch(running.url, {
      method: "POST",
      headers: session,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    })
  ).text();
  const call = await fetch(running.url, {
    method: "POST",
    headers: session,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "greet", arguments: {} },
    }),
  });
  expect(await call.text()).toContain("hello");
  const spans = otel.memory.getFinishedSpans().filter((s) => s.kind === SERVER);
  return { sessionId, spans };
}

describe("[issue-25.1] the server span keeps the session id only hashed", () => {
  it("mcp.session.id is a SHA-256 of the session id, never the id itself", async () => {
    const { sessionId, spans } = await sessionSpans();
    const tool = spans.find((s) => s.name === "tools/call greet");
    expect(tool).toBeDefined();
    const expected = `sha256:${createHash("sha256").update(sessionId).digest("hex").slice(0, 32)}`;
    for (const span of spans) {
      const value = span.attributes["mcp.session.id"];
      if (value === undefined) continue;
      expect(value).toBe(expected);
      expect(String(value)).not.toContain(sessionId);
    }
    expect(tool!.attributes["mcp.session.id"]).toBe(expected);
  });

  it("carries the raw id only when the app asks for it (telemetry.rawSessionId)", async () => {
    const { sessionId, spans } = await sessionSpans(true);
    expect(spans.find((s) => s.name === "tools/call greet")!.attributes["mcp.session.id"]).toBe(sessionId);
  });
});
