// An MCP server as a Cloudflare Worker (workerd): a module worker whose `fetch` is the handler. The app is
// made on the first request, as a Worker's global scope may not start timers. Modern (2026-07-28)
// requests are stateless and need nothing more; legacy sessions live in one isolate's memory, so on a
// fleet of isolates pin them with a Durable Object, or serve `eras: "modern"` only.
// Run: bundle it (esbuild --bundle --format=esm), then `wrangler dev` or `workerd serve` a config naming it.
import { createApp } from "./tools.js";

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

let app: ReturnType<typeof createApp> | undefined;

export default {
  fetch(request: Request, _env: unknown, _ctx: ExecutionContext): Promise<Response> {
    app ??= createApp();
    return app.handler.fetch(request);
  },
};
