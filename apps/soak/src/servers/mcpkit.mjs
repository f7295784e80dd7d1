// The mcpkit soak server (built dist): one registry for both eras, served over Streamable HTTP (both eras
// on one endpoint, `listen()` defaults plus a short idle expiry so the end of the run can see sessions go)
// or stdio. Tools: echo, work (progress steps, cancellable), slow (outlives the client's timeout), ask
// (one elicitation round: a legacy request or a modern input_required), whoami (what the server knows of
// the caller). GET /stats answers the memory and handle figures.
import { join } from "node:path";
import { writeHeapSnapshot } from "node:v8";
import { createServer } from "@mcpkit/server";
import { listen } from "@mcpkit/transport-http/node";
import { serveStdio } from "@mcpkit/transport-stdio";
import { announce, readSettings, stats, wait } from "./common.mjs";

const settings = readSettings();
const server = createServer({
  name: "soak-mcpkit",
  version: "0.0.0",
  logger: { error: (m, e) => console.error(m, e) },
});
const text = (t) => ({ content: [{ type: "text", text: t }] });
const object = (properties) => ({ type: "object", properties, required: Object.keys(properties) });

server.registerTool("echo", { inputSchema: object({ text: { type: "string" } }) }, ({ text: t }) => text(t));
server.registerTool(
  "work",
  { inputSchema: object({ steps: { type: "number" }, ms: { type: "number" } }) },
  async ({ steps, ms }, ctx) => {
    for (let i = 1; i <= steps; i++) {
      await wait(ms, ctx.signal);
      await ctx.progress(i, steps);
    }
    return text(`worked ${steps}`);
  },
);
server.registerTool("slow", { inputSchema: object({ ms: { type: "number" } }) }, async ({ ms }, ctx) => {
  await wait(ms, ctx.signal);
  return text("late");
});
server.registerTool("ask", { inputSchema: object({ nonce: { type: "string" } }) }, async ({ nonce }, ctx) => {
  const answer = await ctx.elicit({
    message: `nonce ${nonce}?`,
    requestedSchema: { type: "object", properties: { nonce: { type: "string" } }, required: ["nonce"] },
  });
  return text(answer.action === "accept" ? String(answer.content?.nonce) : answer.action);
});
server.registerTool("whoami", {}, (_args, ctx) =>
  text(JSON.stringify({ client: ctx.client.info?.name ?? null })),
);

if (settings.transport === "stdio") {
  await serveStdio((transport) => server.connect(transport));
} else {
  let handle;
  handle = await listen({
    port: 0,
    connect: (transport) => server.connect(transport),
    sessionIdleTimeout: settings.idleMs,
    onLimit: (e) => console.error(`limit ${e.limit}: ${e.message}`),
    otherRoutes: (request) => {
      const url = new URL(request.url);
      if (url.pathname === "/stats") return Response.json(stats(handle.handler.sessionCount));
      // A heap snapshot on demand (--snapshots): after a forced GC, into the folder the harness names.
      if (url.pathname === "/heap-snapshot" && settings.snapshotDir) {
        globalThis.gc?.();
        const file = writeHeapSnapshot(
          join(settings.snapshotDir, `${url.searchParams.get("name")}.heapsnapshot`),
        );
        return Response.json({ file });
      }
      return undefined;
    },
  });
  announce(handle.port);
}
