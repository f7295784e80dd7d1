// The Deno cell's server: the runtime app on Deno.serve. PORT, ORIGIN env.
import { createRuntimeApp } from "../fixtures/runtime-server.js";

declare const Deno: {
  version: { deno: string };
  env: { get(name: string): string | undefined };
  serve(
    options: { port: number; hostname: string; onListen(addr: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

const origin = Deno.env.get("ORIGIN");
const app = createRuntimeApp(origin ? [origin] : []);
Deno.serve(
  {
    port: Number(Deno.env.get("PORT")),
    hostname: "127.0.0.1",
    onListen: ({ port }) => console.error(`[deno ${Deno.version.deno}] listening on 127.0.0.1:${port}`),
  },
  app.fetch,
);
