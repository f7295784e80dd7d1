// Issue 25 (also weak): `http://localhost:<any port>` used to pass the Origin check. A page on another
// loopback port is another site (any local program or dev server): under the spec's DNS-rebinding
// guidance it must be refused unless the app allows it. Real loopback HTTP, raw node:http requests (a
// fetch would not let the test set Origin and Host freely).
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { listen } from "../src/node.js";
import { createTestApp } from "./app.js";
import { LEGACY } from "./support.js";

let cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
  cleanups = [];
});

const INIT = { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "t", version: "1" } };

function initialize(url: string, origin: string, host?: string): Promise<number> {
  return exchange(url, origin, host).then((answer) => answer.status);
}

function exchange(
  url: string,
  origin: string,
  host?: string,
): Promise<{ status: number; allowOrigin: unknown }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      origin,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    if (host !== undefined) headers.host = host;
    const req = request(url, { method: "POST", headers }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, allowOrigin: res.headers["access-control-allow-origin"] }),
      );
    });
    req.on("error", reject);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INIT }));
  });
}

describe("[issue-25.weak] a loopback Origin passes only on the server's own port", () => {
  it("refuses a page on another localhost port, accepts the server's own origin by any loopback name", async () => {
    const server = await listen(createTestApp().options);
    cleanups.push(() => server.close());
    const other = server.port === 65535 ? server.port - 1 : server.port + 1;
    expect(await initialize(server.url, `http://localhost:${other}`)).toBe(403);
    expect(await initialize(server.url, `http://127.0.0.1:${other}`)).toBe(403);
    expect(await initialize(server.url, `http://[::1]:${other}`)).toBe(403);
    expect(await initialize(server.url, `http://127.0.0.1:${server.port}`)).toBe(200);
    expect(await initialize(server.url, `http://localhost:${server.port}`, `localhost:${server.port}`)).toBe(
      200,
    );
  });

  it("a page on another loopback port passes when the app lists it in allowedOrigins", async () => {
    const server = await listen(createTestApp({ allowedOrigins: ["http://localhost:5173"] }).options);
    cleanups.push(() => server.close());
    expect(await initialize(server.url, "http://localhost:5173")).toBe(200);
    expect(await initialize(server.url, "http://localhost:5174")).toBe(403);
  });

  it("with cors on, a page on another localhost port gets its 403 without CORS headers", async () => {
    const server = await listen(createTestApp({ cors: true }).options);
    cleanups.push(() => server.close());
    const other = server.port === 65535 ? server.port - 1 : server.port + 1;
    expect(await exchange(server.url, `http://localhost:${other}`)).toEqual({
      status: 403,
      allowOrigin: undefined,
    });
    const own = `http://127.0.0.1:${server.port}`;
    expect(await exchange(server.url, own)).toEqual({ status: 200, allowOrigin: own });
  });
});
