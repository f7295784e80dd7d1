// The raw limit, server side: only what the wire needs. stdio: newline-delimited JSON on stdin/stdout
// (split, parse, answer, stringify, write). HTTP: a bare node:http JSON POST endpoint with keep-alive,
// answering with a JSON body or a one-event SSE body.
import http from "node:http";
import { announcePort, blobText, fillerNames, readServerSpec, statsText } from "../common/tools.mjs";

const spec = readServerSpec();
const toolList = ["echo", "blob", "stats", ...fillerNames(spec.tools)].map((name) => ({
  name,
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
}));

function answer(msg) {
  const p = msg.params;
  switch (msg.method) {
    case "initialize":
      return {
        protocolVersion: p?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "raw", version: "0" },
      };
    case "tools/list":
      return { tools: toolList };
    case "tools/call": {
      const a = p.arguments;
      if (p.name === "echo") return { content: [{ type: "text", text: a.text }] };
      if (p.name === "blob") return { content: [{ type: "text", text: blobText(a.bytes) }] };
      if (p.name === "stats") return { content: [{ type: "text", text: statsText() }] };
      return { content: [{ type: "text", text: "" }] };
    }
    default:
      return {};
  }
}

if (spec.transport === "stdio") {
  let parts = [];
  process.stdin.on("data", (chunk) => {
    let from = 0;
    let nl = chunk.indexOf(10);
    while (nl !== -1) {
      parts.push(chunk.subarray(from, nl));
      const line = parts.length === 1 ? parts[0] : Buffer.concat(parts);
      parts = [];
      const msg = JSON.parse(line.toString());
      if (msg.id !== undefined) {
        process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: answer(msg) })}\n`);
      }
      from = nl + 1;
      nl = chunk.indexOf(10, from);
    }
    if (from < chunk.length) parts.push(chunk.subarray(from));
  });
  process.stdin.on("end", () => process.exit(0));
} else {
  const sse = spec.reply === "sse";
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const msg = JSON.parse(Buffer.concat(chunks).toString());
      if (msg.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const json = JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: answer(msg) });
      const body = sse ? `event: message\ndata: ${json}\n\n` : json;
      res.writeHead(200, {
        "content-type": sse ? "text/event-stream" : "application/json",
        "content-length": Buffer.byteLength(body),
      });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => announcePort(server.address().port));
}
