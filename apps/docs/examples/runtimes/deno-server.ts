// An MCP server on Deno: `Deno.serve` hands every request to the Web-standard handler.
// Run: deno run --allow-net --allow-env examples/runtimes/deno-server.ts   (PORT, default 8000)
import { createApp } from "./tools.js";

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { port: number; hostname: string },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

const { handler } = createApp();
Deno.serve({ port: Number(Deno.env.get("PORT") ?? 8000), hostname: "127.0.0.1" }, (request) =>
  handler.fetch(request),
);
