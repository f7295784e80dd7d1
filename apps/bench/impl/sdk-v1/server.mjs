// Official SDK v1 (@modelcontextprotocol/sdk 1.32.2) server: McpServer with zod tool schemas, served over
// StdioServerTransport, or over StreamableHTTPServerTransport with a session per client (legacy era; JSON or
// SSE replies) on a plain node:http server.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { announcePort, blobText, fillerNames, readServerSpec, statsText } from "../common/tools.mjs";

const spec = readServerSpec();

function build() {
  const server = new McpServer({ name: "bench-sdk-v1", version: "0.0.0" });
  const text = (t) => ({ content: [{ type: "text", text: t }] });
  server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text: t }) => text(t));
  server.registerTool("blob", { inputSchema: { bytes: z.number() } }, async ({ bytes }) =>
    text(blobText(bytes)),
  );
  server.registerTool("stats", {}, async () => text(statsText()));
  for (const name of fillerNames(spec.tools)) {
    server.registerTool(
      name,
      { description: `filler ${name}`, inputSchema: { text: z.string() } },
      async (a) => text(a.text),
    );
  }
  return server;
}

if (spec.transport === "stdio") {
  await build().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  const httpServer = http.createServer(async (req, res) => {
    try {
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (!transport) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: spec.reply === "json",
          onsessioninitialized: (sid) => sessions.set(sid, transport),
        });
        transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
        await build().connect(transport);
      }
      await transport.handleRequest(req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }
  });
  httpServer.keepAliveTimeout = 60_000;
  httpServer.listen(0, "127.0.0.1", () => announcePort(httpServer.address().port));
}
