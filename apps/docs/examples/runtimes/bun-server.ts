// An MCP server on Bun: `Bun.serve` hands every request to the Web-standard handler.
// Run: bun examples/runtimes/bun-server.ts   (PORT, default 3000)
import { createApp } from "./tools.js";

declare const Bun: {
  serve(options: {
    port: number;
    hostname: string;
    idleTimeout: number;
    fetch(request: Request): Promise<Response>;
  }): { url: URL };
};

const { handler } = createApp();
const server = Bun.serve({
  port: Number(process.env.PORT ?? 3000),
  hostname: "127.0.0.1",
  // Bun closes a connection idle for 10 s by default; 0 keeps quiet SSE streams (legacy GET, listen) open.
  idleTimeout: 0,
  fetch: (request) => handler.fetch(request),
});
console.log(`MCP server on ${server.url}`);
