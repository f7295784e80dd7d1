// Counts the Redis commands a request costs, on a private Redis nobody else uses (INFO commandstats is
// server-wide): a plain modern tools/call costs none; a legacy tools/call answered as SSE costs three (the
// session record read, two events stored for resumption).
import { createServer } from "@mcpkit/server";
import { type HttpServerHandle, listen } from "@mcpkit/transport-http/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRedis, type RedisConnection, type RedisStore, redisStore } from "../src/index.js";
import { type PrivateRedis, redisServerMissing, startPrivateRedis } from "./private-redis.js";

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const missing = redisServerMissing();
if (missing !== undefined && process.env.CI === "true") throw new Error(`CI needs redis-server: ${missing}`);
if (missing !== undefined) console.warn(`Skipping the round-trip count: ${missing}`);

describe.skipIf(missing !== undefined)("Redis round trips per request", () => {
  let redis: PrivateRedis;
  let observer: RedisConnection;
  let store: RedisStore;
  let http: HttpServerHandle;
  let id = 0;

  /** Commands run on the private Redis so far, by name, leaving out the observer's own. */
  async function commands(): Promise<Record<string, number>> {
    const info = await observer.info("commandstats");
    const counts: Record<string, number> = {};
    for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
      const name = match[1]!;
      if (name === "info" || name === "config|resetstat") continue;
      counts[name] = Number(match[2]);
    }
    return counts;
  }

  /** What ran on Redis while `work` ran. */
  async function during(work: () => Promise<void>): Promise<Record<string, number>> {
    await observer.configResetStat();
    await work();
    // Anything the server does after answering, in the same turn, is counted too.
    await new Promise((resolve) => setImmediate(resolve));
    return commands();
  }

  function post(body: object, headers: Record<string, string>): Promise<Response> {
    return fetch(http.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify(body),
    });
  }

  beforeAll(async () => {
    redis = await startPrivateRedis();
    observer = await openRedis(redis.url);
    store = await redisStore({ url: redis.url, stateKeys: "a-key-for-this-test" });
    const server = createServer({ name: "counted", version: "1.0.0" });
    server.registerTool(
      "echo",
      { inputSchema: { type: "object", properties: { text: { type: "string" } } } },
      ({ text }: { text: string }) => text,
    );
    // A task tool: the server offers the tasks extension and holds the Redis task store.
    server.registerTool("job", { taskSupport: "optional" }, () => "done");
    server.useStores(store);
    http = await listen({
      port: 0,
      eventStore: store.eventStore,
      sessionStore: store.sessionStore,
      server,
    });
  });

  afterAll(async () => {
    await http?.close();
    await store?.close();
    await observer?.close();
    await redis?.stop();
  });

  it("a plain modern tools/call (JSON and SSE replies, a listed tool, validated arguments) runs no Redis command", async () => {
    const ran = await during(async () => {
      for (const accept of ["application/json, text/event-stream", "text/event-stream, application/json"]) {
        for (let i = 0; i < 5; i++) {
          const response = await post(
            {
              jsonrpc: "2.0",
              id: ++id,
              method: "tools/call",
              params: {
                name: "echo",
                arguments: { text: `hello ${i}` },
                _meta: {
                  "io.modelcontextprotocol/protocolVersion": MODERN,
                  "io.modelcontextprotocol/clientCapabilities": {},
                  "io.modelcontextprotocol/clientInfo": { name: "counter", version: "1" },
                },
              },
            },
            { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo", accept },
          );
          expect(response.status).toBe(200);
          expect(await response.text()).toContain(`hello ${i}`);
        }
      }
    });
    expect(ran).toEqual({});
  });

  it("a legacy tools/call in a session costs three round trips: the record read, two events stored", async () => {
    const init = await post(
      {
        jsonrpc: "2.0",
        id: ++id,
        method: "initialize",
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "counter", version: "1" } },
      },
      { "mcp-protocol-version": LEGACY },
    );
    const session = init.headers.get("mcp-session-id")!;
    await init.text();
    const headers = { "mcp-protocol-version": LEGACY, "mcp-session-id": session };
    await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).text();
    // Warm: this instance already serves the session (no adoption in what is counted).
    const ran = await during(async () => {
      const response = await post(
        {
          jsonrpc: "2.0",
          id: ++id,
          method: "tools/call",
          params: { name: "echo", arguments: { text: "x" } },
        },
        headers,
      );
      expect(await response.text()).toContain('"x"');
    });
    // Three round trips, each one MULTI … EXEC: the session record read with its TTL restarted (PEXPIRE
    // HGETALL), then the reply's two SSE events stored for resumption (the priming event and the
    // response: XADD PEXPIRE each).
    expect(ran).toEqual({ multi: 3, exec: 3, pexpire: 3, hgetall: 1, xadd: 2 });
  });
});
