// Timeouts: every request has one, so nothing hangs. Precedence: the call's `timeout` > the ambient
// `withRequestConfig(config, fn)` scope > the client's `requestTimeout` > 60 s. A timeout rejects with
// `TimeoutError` (a local error, never a wire code), cancels the request at the server, and the session
// stays usable. Progress restarts the timer unless `resetTimeoutOnProgress: false`, bounded by
// `maxTotalTimeout`.
// Run: pnpm --filter @mcpkit/docs example examples/client-timeouts.ts
import { createClient } from "@mcpkit/client";
import { createInMemoryPair, TimeoutError } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { withRequestConfig } from "mcpkit";
import { z } from "zod";

const server = createServer({ name: "slow", version: "1.0.0" });
server.registerTool("wait", { inputSchema: z.object({ ms: z.number() }) }, async ({ ms }, ctx) => {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    ctx.signal.addEventListener("abort", stop, { once: true });
  });
  return ctx.signal.aborted ? "cancelled" : `waited ${ms} ms`;
});
server.registerTool("steady", {}, async (_args, ctx) => {
  // 5 × 100 ms of work, reporting progress each time: longer than the 300 ms timeout in total.
  for (let i = 1; i <= 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await ctx.progress(i, 5);
  }
  return "finished";
});

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({ name: "docs", version: "1.0.0", requestTimeout: 5_000 });
await client.connect(clientSide);
const attempt = (p: Promise<{ content: string }>) =>
  p.then(
    (result) => result.content,
    (error: Error) => (error instanceof TimeoutError ? `TimeoutError: ${error.message}` : String(error)),
  );
try {
  console.log("per call 50 ms:", await attempt(client.callTool("wait", { ms: 1_000 }, { timeout: 50 })));
  console.log("session still fine:", await attempt(client.callTool("wait", { ms: 10 })));
  const scoped = await withRequestConfig({ timeout: 50 }, () =>
    attempt(client.callTool("wait", { ms: 1_000 })),
  );
  console.log("withRequestConfig 50 ms:", scoped);
  // Progress flows only for calls that ask for it (onProgress sends a progressToken).
  const onProgress = () => {};
  console.log(
    "progress resets 300 ms:",
    await attempt(client.callTool("steady", {}, { timeout: 300, onProgress })),
  );
  console.log(
    "no reset on progress:",
    await attempt(client.callTool("steady", {}, { timeout: 300, onProgress, resetTimeoutOnProgress: false })),
  );
  console.log(
    "maxTotalTimeout 350 ms:",
    await attempt(client.callTool("steady", {}, { timeout: 300, onProgress, maxTotalTimeout: 350 })),
  );
} finally {
  await client.close();
  await server.close();
}
