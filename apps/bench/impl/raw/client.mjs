// The raw limit, client side: stdio spawns the server and speaks newline JSON over the pipes; HTTP posts
// JSON with a keep-alive http.Agent (one socket per client) and reads a JSON or a one-event SSE body.
// `spec.era === "modern"`: each POST is a 2026-07-28 request (no initialize, no session): the
// MCP-Protocol-Version, Mcp-Method and Mcp-Name headers, and the version and client capabilities in
// `params._meta`, so it measures a server's modern path alone, without that server's own client.
import { spawn } from "node:child_process";
import http from "node:http";
import { firstText, runDriver } from "../common/driver.mjs";

const MODERN = "2026-07-28";
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
};
const INIT = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } };

function session(request, close) {
  const call = async (name, args) => firstText(await request("tools/call", { name, arguments: args }));
  return {
    echo: (text) => call("echo", { text }),
    blob: async (bytes) => (await call("blob", { bytes })).length,
    list: async () => (await request("tools/list", {})).tools.length,
    stats: async () => JSON.parse(await call("stats", {})),
    close,
  };
}

async function connectStdio(spec) {
  const child = spawn(spec.server.command, spec.server.args, { stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map();
  let nextId = 1;
  let parts = [];
  const exited = new Promise((resolve) => child.on("exit", resolve));
  exited.then(() => {
    for (const p of pending.values()) p.reject(new Error("raw: server exited"));
    pending.clear();
  });
  child.stdout.on("data", (chunk) => {
    let from = 0;
    let nl = chunk.indexOf(10);
    while (nl !== -1) {
      parts.push(chunk.subarray(from, nl));
      const line = parts.length === 1 ? parts[0] : Buffer.concat(parts);
      parts = [];
      const msg = JSON.parse(line.toString());
      const p = pending.get(msg.id);
      if (p) {
        pending.delete(msg.id);
        if (msg.error) p.reject(new Error(msg.error.message));
        else p.resolve(msg.result);
      }
      from = nl + 1;
      nl = chunk.indexOf(10, from);
    }
    if (from < chunk.length) parts.push(chunk.subarray(from));
  });
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request("initialize", INIT);
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return session(request, async () => {
    child.stdin.end();
    await exited;
  });
}

async function connectHttp(spec) {
  const url = new URL(spec.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const modern = spec.era === "modern";
  let nextId = 1;
  const post = (message) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(message);
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "content-length": Buffer.byteLength(body),
      };
      if (modern) {
        headers["mcp-protocol-version"] = MODERN;
        headers["mcp-method"] = message.method;
        // tools/call names its tool (the only named method this client sends).
        if (message.method === "tools/call") headers["mcp-name"] = message.params.name;
      }
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers,
        },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => {
            if (res.statusCode === 202) return resolve(undefined);
            let text = Buffer.concat(chunks).toString();
            if (res.headers["content-type"]?.startsWith("text/event-stream")) {
              const at = text.indexOf("data: ");
              text = text.slice(at + 6, text.indexOf("\n", at));
            }
            const msg = JSON.parse(text);
            if (msg.error) reject(new Error(msg.error.message));
            else resolve(msg.result);
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  if (modern) {
    // The params objects are made per call (see session): adding `_meta` to them copies nothing.
    const request = (method, params) => {
      params._meta = MODERN_META;
      return post({ jsonrpc: "2.0", id: nextId++, method, params });
    };
    return { ...session(request, async () => agent.destroy()), era: "modern" };
  }
  const request = (method, params) => post({ jsonrpc: "2.0", id: nextId++, method, params });
  await request("initialize", INIT);
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  return session(request, async () => agent.destroy());
}

runDriver((spec) => (spec.transport === "stdio" ? connectStdio(spec) : connectHttp(spec)));
