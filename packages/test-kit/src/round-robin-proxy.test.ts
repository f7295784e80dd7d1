import { once } from "node:events";
import { createServer, type Server, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { INSTANCE_HEADER, type RoundRobinProxy, startRoundRobinProxy } from "./round-robin-proxy.js";

const servers: Server[] = [];
let proxy: RoundRobinProxy | undefined;

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** An instance that answers `<name> <method> <body>`, or holds an SSE stream open on GET /stream. */
async function instance(name: string) {
  const streams: ServerResponse[] = [];
  const server = createServer((req, res) => {
    if (req.url === "/stream") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${name}\n\n`);
      streams.push(res);
      return;
    }
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => res.end(`${name} ${req.method} ${body}`));
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server, streams };
}

describe("startRoundRobinProxy", () => {
  it("sends each request to the next instance in turn, body and path intact, naming the instance", async () => {
    const all = await Promise.all(["a", "b", "c"].map(instance));
    proxy = await startRoundRobinProxy({ upstreams: all.map((i) => i.url) });
    const seen: string[] = [];
    for (let n = 0; n < 6; n++) {
      const response = await fetch(`${proxy.url}/mcp?x=1`, { method: "POST", body: `n${n}` });
      expect(response.headers.get(INSTANCE_HEADER)).toBe(String(n % 3));
      seen.push(await response.text());
    }
    expect(seen).toEqual(["a POST n0", "b POST n1", "c POST n2", "a POST n3", "b POST n4", "c POST n5"]);
    expect(proxy.log.map((r) => r.instance)).toEqual([0, 1, 2, 0, 1, 2]);
    expect(proxy.log[0]).toEqual({ method: "POST", path: "/mcp?x=1", instance: 0, status: 200 });
  });

  it("skips an instance that refuses connections (killed) and one that was cut off", async () => {
    const all = await Promise.all(["a", "b", "c"].map(instance));
    proxy = await startRoundRobinProxy({ upstreams: all.map((i) => i.url) });
    all[1]!.server.close();
    proxy.cut(2);
    const texts = [];
    for (let n = 0; n < 3; n++)
      texts.push(await (await fetch(proxy.url, { method: "POST", body: "x" })).text());
    expect(texts).toEqual(["a POST x", "a POST x", "a POST x"]);
    proxy.restore(2);
    const after = await Promise.all(
      [1, 2].map(async () => (await fetch(proxy!.url, { method: "POST" })).text()),
    );
    expect(after.sort()).toEqual(["a POST ", "c POST "]);
  });

  it("streams an answer as it comes, and breaks the client's stream when its instance is cut", async () => {
    const a = await instance("a");
    proxy = await startRoundRobinProxy({ upstreams: [a.url] });
    const response = await fetch(`${proxy.url}/stream`);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: a\n\n");
    proxy.cut(0);
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return "ended cleanly";
      })(),
    ).rejects.toThrow();
  });

  it("answers 502 when no instance can take the request", async () => {
    const a = await instance("a");
    proxy = await startRoundRobinProxy({ upstreams: [a.url] });
    a.server.close();
    expect((await fetch(proxy.url, { method: "POST" })).status).toBe(502);
  });
});
