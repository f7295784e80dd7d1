// tmcp server (tmcp 1.20.0 + @tmcp/transport-http 0.9.0, zod schemas through @tmcp/adapter-zod), over
// Streamable HTTP only (there is no tmcp client: its rows are driven by the raw client). The transport's
// Web `respond(Request)` is mounted on node:http with @remix-run/node-fetch-server, as tmcp's README does.
// It serves both the sessions and the 2026-07-28 per-request protocol on one endpoint; it answers requests
// with SSE whatever `spec.reply` says.
import http from "node:http";
import { createRequestListener } from "@remix-run/node-fetch-server";
import { ZodJsonSchemaAdapter } from "@tmcp/adapter-zod";
import { HttpTransport } from "@tmcp/transport-http";
import { McpServer } from "tmcp";
import { z } from "zod";
import { announcePort, blobText, fillerNames, readServerSpec, statsText } from "../common/tools.mjs";

const spec = readServerSpec();
if (spec.transport !== "http") throw new Error("tmcp bench server: HTTP only");
const server = new McpServer(
  { name: "bench-tmcp", version: "0.0.0", description: "bench" },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
);
const text = (t) => ({ content: [{ type: "text", text: t }] });
server.tool(
  { name: "echo", description: "echo", schema: z.object({ text: z.string() }) },
  async ({ text: t }) => text(t),
);
server.tool(
  { name: "blob", description: "blob", schema: z.object({ bytes: z.number() }) },
  async ({ bytes }) => text(blobText(bytes)),
);
server.tool({ name: "stats", description: "stats" }, async () => text(statsText()));
for (const name of fillerNames(spec.tools)) {
  server.tool({ name, description: `filler ${name}`, schema: z.object({ text: z.string() }) }, async (a) =>
    text(a.text),
  );
}
const transport = new HttpTransport(server, { path: "/mcp" });
const httpServer = http.createServer(
  createRequestListener(
    async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 }),
  ),
);
httpServer.keepAliveTimeout = 60_000;
httpServer.listen(0, "127.0.0.1", () => announcePort(httpServer.address().port));
