// The server every runtime example serves: built once, runtime-neutral (no Node import), handed to a
// Web-standard handler. Tool schemas outside the built-in validator's subset (`anyOf` here) are checked by
// ajv where code generation is allowed and by an eval-free engine where it is not (Cloudflare Workers):
// detected by itself, nothing to configure.
import { createServer } from "@mcpkit/server";
import { createStreamableHttpHandler } from "@mcpkit/transport-http";
import { z } from "zod";

/** An MCP server with two tools, and the `fetch` handler serving it at any path, both protocol eras. */
export function createApp(options: { allowedOrigins?: string[] } = {}) {
  const server = createServer({ name: "runtimes-demo", version: "1.0.0" });
  server.registerTool(
    "greet",
    { inputSchema: z.object({ name: z.string() }) },
    ({ name }) => `Hello, ${name}!`,
  );
  server.registerTool(
    "pick",
    {
      inputSchema: {
        type: "object",
        properties: { id: { type: "integer" }, slug: { type: "string" } },
        anyOf: [{ required: ["id"] }, { required: ["slug"] }],
      },
    },
    (args: { id?: number; slug?: string }) => `picked ${args.id ?? args.slug}`,
  );
  const handler = createStreamableHttpHandler({
    connect: (transport) => server.connect(transport).then(() => {}),
    // A browser page on another origin (see browser-client.ts) needs both: the origin allowed, CORS on.
    allowedOrigins: options.allowedOrigins ?? [],
    cors: true,
  });
  return { server, handler };
}
