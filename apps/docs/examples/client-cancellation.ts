// Cancellation: pass an AbortSignal; aborting rejects the call with `signal.reason` (as fetch does)
// and cancels it at the server — `notifications/cancelled` on stdio and legacy HTTP, a closed response
// stream on modern HTTP — where the handler's `ctx.signal` fires.
// Run: pnpm --filter @mcpkit/docs example examples/client-cancellation.ts
import { createServer } from "@mcpkit/server";
import { connect, serve } from "mcpkit";

const server = createServer({ name: "cancellable", version: "1.0.0" });
let started!: () => void;
const handlerStarted = new Promise<void>((resolve) => (started = resolve));
let serverSaw!: (reason: string) => void;
const serverSawAbort = new Promise<string>((resolve) => (serverSaw = resolve));
server.registerTool("forever", {}, (_args, ctx) => {
  started();
  return new Promise((_resolve, reject) => {
    ctx.signal.addEventListener("abort", () => {
      serverSaw("ctx.signal aborted");
      reject(ctx.signal.reason);
    });
  });
});

const http = await serve(server, { transport: "http", port: 0, block: false, onListening() {} });
try {
  await using client = await connect(http.url);
  const controller = new AbortController();
  const call = client.callTool("forever", {}, { signal: controller.signal });
  await handlerStarted;
  controller.abort(new Error("the user pressed stop"));
  await call.catch((error: Error) => console.log("call rejected with:", error.message));
  console.log("server side:", await serverSawAbort);
  console.log("next call works:", (await client.listTools()).length, "tool(s)");
} finally {
  await http.close();
  await server.close();
}
