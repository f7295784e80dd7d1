// Official SDK v2 (@modelcontextprotocol/server 2.4.0 + @modelcontextprotocol/node 2.1.2) server. One
// factory builds an McpServer with zod tool schemas. stdio: serveStdio(factory). HTTP legacy: a session per
// client over NodeStreamableHTTPServerTransport. HTTP modern: the stateless createMcpHandler(factory)
// (modern only) mounted with toNodeHandler. JSON or SSE replies as the spec says.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { NodeStreamableHTTPServerTransport, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
import { announcePort, blobText, fillerNames, readServerSpec, statsText } from "../common/tools.mjs";

const spec = readServerSpec();

function build() {
  const server = new McpServer({ name: "bench-sdk-v2", version: "0.0.0" });
  const text = (t) => ({ content: [{ type: "text", text: t }] });
  server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text: t }) =>
    text(t),
  );
  server.registerTool("blob", { inputSchema: z.object({ bytes: z.number() }) }, async ({ bytes }) =>
    text(blobText(bytes)),
  );
  server.registerTool("stats", {}, async () => text(statsText()));
  for (const name of fillerNames(spec.tools)) {
    server.registerTool(
      name,
      { description: `filler ${name}`, inputSchema: z.object({ text: z.string() }) },
      async (a) => text(a.text),
    );
  }
  return server;
}

function listen(handler) {
  const httpServer = http.createServer(handler);
  httpServer.keepAliveTimeout = 60_000;
  httpServer.listen(0, "127.0.0.1", () => announcePort(httpServer.address().port));
}

if (spec.transport === "stdio") {
  serveStdio(() => build());
} else if (spec.era === "modern") {
  const handler = createMcpHandler(() => build(), { legacy: "reject", responseMode: spec.reply });
  listen(toNodeHandler(handler));
} else {
  const sessions = new Map();
  listen(async (req, res) => {
    try {
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (!transport) {
        transport = new NodeStreamableHTTPServerTransport({
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
}
