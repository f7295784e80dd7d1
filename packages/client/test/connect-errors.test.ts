// Errors of connect() that name their cause: the phase a handshake timed out in, the first output that
// was not JSON, and a server that does not speak the era the client was pinned to.
import type { Transport, TransportSink } from "@mcpkit/jsonrpc";
import { TimeoutError } from "@mcpkit/jsonrpc";
import { McpError } from "@mcpkit/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type Client, createClient } from "../src/index.js";
import { legacyHandlers, type Responder, responder } from "./helpers.js";

const open: Array<Client | Responder> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

/** A server that prints a banner to stdout, then never answers; its close never finishes. */
function bannerServer(): Transport & { closeCalled: boolean } {
  return {
    traits: { perRequestStream: false },
    closeCalled: false,
    async start(sink: TransportSink) {
      queueMicrotask(() => sink.onInvalid(new SyntaxError('Not JSON: "Weather server v2 listening"')));
    },
    async send() {},
    close() {
      this.closeCalled = true;
      return new Promise<void>(() => {});
    },
  };
}

describe("connect() errors that name the cause", () => {
  it("names the unanswered phase and quotes the first line that was not JSON; the teardown is not awaited", async () => {
    const transport = bannerServer();
    // Bounds far above the few milliseconds a handshake takes, so a loaded machine cannot reorder them.
    const c = createClient({ name: "t", version: "1", connectTimeout: 1000, probeTimeout: 500 });
    const error = await c.connect(transport).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(
      'connect() timed out after 1000 ms: no answer to server/discover nor initialize. The server wrote a line that is not JSON-RPC: "Weather server v2 listening" (over stdio, logs belong on stderr)',
    );
    // Its close() never resolves, yet connect() rejected: the bound covers the teardown.
    expect(transport.closeCalled).toBe(true);
  });

  it("names server/discover alone when the client is pinned to the modern era", async () => {
    const r = await responder({ "server/discover": () => new Promise(() => {}) });
    open.push(r);
    const c = createClient({ name: "t", version: "1", connectTimeout: 500, versionNegotiation: "modern" });
    const error = await c.connect(r.transport).catch((e: unknown) => e);
    expect((error as Error).message).toBe("connect() timed out after 500 ms: no answer to server/discover");
  });

  it("says plainly that a legacy-only server does not speak the modern revision a pinned client needs", async () => {
    const r = await responder(legacyHandlers());
    open.push(r);
    const c = createClient({ name: "t", version: "1", versionNegotiation: "modern" });
    open.push(c);
    const error = await c.connect(r.transport).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32601);
    expect((error as Error).message).toBe(
      'The server does not speak the 2026-07-28 protocol revision that versionNegotiation "modern" requires (it answered server/discover with: Method not found); connect with versionNegotiation "auto" or "legacy"',
    );
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});
