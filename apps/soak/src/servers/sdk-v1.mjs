// The official SDK v1 soak server (@modelcontextprotocol/sdk 1.32.2): McpServer with the same tools as the
// mcpkit one, over StdioServerTransport or StreamableHTTPServerTransport with a session per client on a
// plain node:http server, set up as its README shows (the SDK has no idle expiry of its own: a session
// ends on DELETE or when the app closes it). GET /stats answers the memory and handle figures.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { announce, readSettings, stats, wait } from "./common.mjs";

const settings = readSettings();
const text = (t) => ({ content: [{ type: "text", text: t }] });

function build() {
  const server = new McpServer({ name: "soak-sdk-v1", version: "0.0.0" });
  server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text: t }) => text(t));
  server.registerTool(
    "work",
    { inputSchema: { steps: z.number(), ms: z.number() } },
    async ({ steps, ms }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        await wait(ms, extra.signal);
        if (token !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: i, total: steps },
          });
        }
      }
      return text(`worked ${steps}`);
    },
  );
  server.registerTool("slow", { inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
    await wait(ms, extra.signal);
    return text("late");
  });
  server.registerTool("ask", { inputSchema: { nonce: z.string() } }, async ({ nonce }) => {
    const answer = await server.server.elicitInput({
      message: `nonce ${nonce}?`,
      requestedSchema: { type: "object", properties: { nonce: { type: "string" } }, required: ["nonce"] },
    });
    return text(answer.action === "accept" ? String(answer.content?.nonce) : answer.action);
  });
  server.registerTool("whoami", {}, async () =>
    text(JSON.stringify({ client: server.server.getClientVersion()?.name ?? null })),
  );
  return server;
}

if (settings.transport === "stdio") {
  await build().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  const httpServer = http.createServer(async (req, res) => {
    try {
      if (req.url === "/stats") {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(stats(sessions.size)));
        return;
      }
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (!transport) {
        if (typeof id === "string") {
          res.writeHead(404, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              jsonrpc: "2.0",
              error: { code: -32001, message: "Session not found" },
              id: null,
            }),
          );
          return;
        }
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => sessions.set(sid, transport),
        });
        transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
        await build().connect(transport);
      }
      await transport.handleRequest(req, res);
    } catch (error) {
      console.error(error);
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  httpServer.keepAliveTimeout = 30_000;
  httpServer.listen(0, "127.0.0.1", () => announce(httpServer.address().port));
}
