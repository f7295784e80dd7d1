// The Bun cell's server: the runtime app on Bun.serve. PORT, ORIGIN env.
import { createRuntimeApp } from "../fixtures/runtime-server.js";

declare const Bun: {
  version: string;
  serve(options: {
    port: number;
    hostname: string;
    idleTimeout: number;
    fetch(request: Request): Promise<Response>;
  }): { url: URL };
};

const app = createRuntimeApp(process.env.ORIGIN ? [process.env.ORIGIN] : []);
// idleTimeout 0: Bun closes a connection idle for 10 s by default, which would cut a quiet SSE stream.
const server = Bun.serve({
  port: Number(process.env.PORT),
  hostname: "127.0.0.1",
  idleTimeout: 0,
  fetch: app.fetch,
});
console.error(`[bun ${Bun.version}] listening on ${server.url}`);
