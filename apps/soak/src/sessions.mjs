// Memory per legacy session: a fresh server, N idle sessions (initialize + initialized, nothing open),
// then N more each holding its GET stream open, then every session DELETEd; the server's heap (after a
// forced GC) and RSS are read between the phases. Raw node:http with one keep-alive agent, so the
// figures are the server's and not a client library's.
import http from "node:http";
import { startHttpServer } from "./procs.mjs";

const VERSION = "2025-11-25";

function request(agent, url, { method, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (res) => resolve({ req, res }));
    req.on("error", reject);
    req.end(body);
  });
}

async function text(res) {
  let out = "";
  for await (const c of res) out += c;
  return out;
}

async function openSession(agent, url) {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await request(agent, url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: VERSION,
        capabilities: {},
        clientInfo: { name: "soak-sessions", version: "0" },
      },
    }),
  });
  await text(init.res);
  const id = init.res.headers["mcp-session-id"];
  if (!id) throw new Error(`initialize answered ${init.res.statusCode} without a session id`);
  const h = { ...headers, "mcp-session-id": id, "mcp-protocol-version": VERSION };
  const done = await request(agent, url, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await text(done.res);
  return id;
}

async function openStream(agent, url, id) {
  const { req, res } = await request(agent, url, {
    method: "GET",
    headers: { accept: "text/event-stream", "mcp-session-id": id, "mcp-protocol-version": VERSION },
  });
  if (res.statusCode !== 200) throw new Error(`GET stream answered ${res.statusCode}`);
  res.resume();
  return req;
}

async function inBatches(items, size, fn) {
  const out = [];
  for (let i = 0; i < items.length; i += size)
    out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

async function stats(server) {
  const res = await fetch(`${server.base}/stats`, { headers: { connection: "close" } });
  return res.json();
}

/** Measures one implementation; resolves the per-session figures in bytes. */
export async function measureSessions(impl, count) {
  const server = await startHttpServer(impl, { idleMs: 3_600_000 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  try {
    const base = await stats(server);
    const indices = Array.from({ length: count }, (_, i) => i);
    const idle = await inBatches(indices, 32, () => openSession(agent, server.url));
    const afterIdle = await stats(server);
    const open = await inBatches(indices, 32, () => openSession(agent, server.url));
    const streams = await inBatches(open, 32, (id) => openStream(streamAgent, server.url, id));
    const afterOpen = await stats(server);
    for (const s of streams) s.destroy();
    await inBatches([...idle, ...open], 32, async (id) => {
      const { res } = await request(agent, server.url, {
        method: "DELETE",
        headers: { "mcp-session-id": id, "mcp-protocol-version": VERSION },
      });
      await text(res);
    });
    await new Promise((r) => setTimeout(r, 500));
    const afterDelete = await stats(server);
    return {
      impl,
      count,
      idleHeap: (afterIdle.heap - base.heap) / count,
      idleRss: (afterIdle.rss - base.rss) / count,
      openHeap: (afterOpen.heap - afterIdle.heap) / count,
      openRss: (afterOpen.rss - afterIdle.rss) / count,
      heapAfterDelete: afterDelete.heap - base.heap,
      sessionsAfterDelete: afterDelete.sessions,
    };
  } finally {
    agent.destroy();
    streamAgent.destroy();
    await server.close();
  }
}
