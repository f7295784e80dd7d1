// Sequential round trips per second over loopback keep-alive: legacy session and modern stateless,
// JSON replies and SSE replies. A benchmark, not a test. Run: pnpm --filter @mcpkit/transport-http bench
// (options: --seconds N per case, default 3).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createPeer, type Peer, type Transport } from "@mcpkit/jsonrpc";
import { MetaKey, modernRequestHeaders } from "@mcpkit/protocol";
import { createStreamableHttpClientTransport } from "../src/index.js";
import { listen } from "../src/node.js";

const seconds = Number(process.argv[process.argv.indexOf("--seconds") + 1]) || 3;
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";

/** Each transport the handler hands over gets a tiny server peer with an `echo` method. */
function connect(transport: Transport): void {
  const peer = createPeer(transport);
  peer.onRequest("initialize", () => ({
    protocolVersion: LEGACY,
    capabilities: {},
    serverInfo: { name: "bench", version: "1" },
  }));
  peer.onRequest("echo", (params: Record<string, unknown>) => ({ text: params.text }));
  void peer.start();
}

type Result = [rate: number, cpuMicrosPerCall: number];

/** Runs `call` sequentially for `seconds`: calls per wall-clock second, and CPU µs (both sides) per call. */
async function measure(call: (i: number) => Promise<unknown>): Promise<Result> {
  for (let i = 0; i < 200; i++) await call(i);
  let n = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) for (let k = 0; k < 50; k++) await call(n++);
  const used = process.cpuUsage(cpu);
  return [n / ((performance.now() - start) / 1000), (used.user + used.system) / n];
}

async function run(era: "legacy" | "modern", preferJson: boolean): Promise<Result> {
  const server = await listen({ connect, preferJson });
  const transport = createStreamableHttpClientTransport({
    url: server.url,
    era,
    openStandaloneStream: false,
    ...(era === "modern" ? { protocolVersion: MODERN } : {}),
  });
  const client: Peer = createPeer(transport);
  await client.start();
  try {
    if (era === "legacy") {
      await client.request("initialize", {
        protocolVersion: LEGACY,
        capabilities: {},
        clientInfo: { name: "bench", version: "1" },
      });
      await client.notify("notifications/initialized");
    }
    const params = (i: number) =>
      era === "modern"
        ? {
            text: `hello ${i}`,
            _meta: { [MetaKey.ProtocolVersion]: MODERN, [MetaKey.ClientCapabilities]: {} },
          }
        : { text: `hello ${i}` };
    // A bare peer passes the modern headers itself (the transport computes none); one object for every call.
    const headers = era === "modern" ? modernRequestHeaders(MODERN, "echo", {}) : undefined;
    return await measure((i) => client.request("echo", params(i), headers ? { headers } : undefined));
  } finally {
    await client.close();
    await server.close();
  }
}

/** The floor: a hand-written node:http echo and bare fetch, same loop, so ratios can be quoted. */
async function raw(): Promise<Result> {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      const m = JSON.parse(body) as { id: number; params: unknown };
      const out = JSON.stringify({ jsonrpc: "2.0", id: m.id, result: m.params });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
      res.end(out);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const call = async (i: number) => {
    const r = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "echo", params: { text: `hello ${i}` } }),
    });
    return r.json();
  };
  try {
    return await measure(call);
  } finally {
    server.close();
  }
}

const rows: Array<[string, Result]> = [["raw node:http + fetch", await raw()]];
for (const era of ["legacy", "modern"] as const) {
  for (const preferJson of [true, false]) {
    const rate = await run(era, preferJson);
    rows.push([`${era} ${preferJson ? "JSON" : "SSE"} replies`, rate]);
  }
}
console.log(
  `sequential round trips/s over loopback keep-alive (${seconds} s per case, node ${process.version})`,
);
const [floor, floorCpu] = rows[0]![1];
console.log("case                      calls/s  vs raw   CPU µs/call (client+server)  vs raw");
for (const [name, [rate, cpu]] of rows) {
  console.log(
    `${name.padEnd(24)} ${String(Math.round(rate)).padStart(8)}  ${String(Math.round((rate / floor) * 100)).padStart(4)}%  ${String(Math.round(cpu)).padStart(12)}                ${String(Math.round((cpu / floorCpu) * 100)).padStart(4)}%`,
  );
}
