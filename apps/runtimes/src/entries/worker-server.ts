// The workerd cell's server: a `fetch` worker. The app is built once per isolate, at the first request
// (a worker's global scope may not start timers), and lives as long as the isolate: modern requests need
// nothing more; legacy sessions live in this isolate's memory (one isolate serves them all under
// `workerd serve`; on a fleet, a Durable Object would have to hold them).
import { createRuntimeApp } from "../fixtures/runtime-server.js";

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

// workerd ends a request's pending work (its timers, its promises) once the response is complete. A task's
// handler goes on after its `tools/call` answered, so each POST is held this long (the fixtures' longest
// task takes a few seconds); an app with tasks on workerd needs the same, or a Durable Object.
const BACKGROUND_WORK_MS = 12_000;

let app: ReturnType<typeof createRuntimeApp> | undefined;

export default {
  fetch(request: Request, env: { ORIGIN?: string }, ctx: ExecutionContext): Promise<Response> {
    app ??= createRuntimeApp(env.ORIGIN ? [env.ORIGIN] : []);
    if (request.method === "POST")
      ctx.waitUntil(new Promise((resolve) => setTimeout(resolve, BACKGROUND_WORK_MS)));
    return app.fetch(request);
  },
};
