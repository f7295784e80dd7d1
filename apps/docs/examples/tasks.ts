// Tasks (the 2026-07-28 extension `io.modelcontextprotocol/tasks`): a long tool declares `taskSupport`;
// a client that declares the extension (`tasks: true`) gets a task back at once, and `callTool` polls
// `tasks/get` until the result is there. For control, start the call yourself and use getTask /
// awaitTask / cancelTask.
// Run: pnpm --filter @mcpkit/docs example examples/tasks.ts
import { createClient, TaskCancelledError } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { z } from "zod";

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
  });

const server = createServer({ name: "renderer", version: "1.0.0", tasks: { pollIntervalMs: 20 } });
server.registerTool(
  "render_video",
  {
    inputSchema: z.object({ frames: z.number().int(), msPerFrame: z.number().int().default(10) }),
    outputSchema: z.object({ frames: z.number(), asTask: z.boolean() }),
    taskSupport: "optional",
  },
  async ({ frames, msPerFrame }, ctx) => {
    for (let i = 0; i < frames; i++) await sleep(msPerFrame, ctx.signal); // tasks/cancel aborts ctx.signal
    return { frames, asTask: ctx.task !== undefined };
  },
);

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({ name: "docs", version: "1.0.0", tasks: true });
await client.connect(clientSide);
try {
  // 1. Transparent: callTool waits for the task's result.
  const result = await client.callTool("render_video", { frames: 3 });
  console.log("callTool:", JSON.stringify(result.structured));

  // 2. By hand: the raw tools/call answers with a task id.
  const created = (await client.request("tools/call", {
    name: "render_video",
    arguments: { frames: 5 },
  })) as {
    resultType: string;
    taskId: string;
  };
  console.log("created:", created.resultType, typeof created.taskId);
  const statuses = new Set<string>();
  const done = await client.awaitTask(created.taskId, { onStatus: (task) => statuses.add(task.status) });
  console.log("awaitTask:", JSON.stringify(done.structured), "statuses seen:", [...statuses].join(" → "));
  console.log("getTask after:", (await client.getTask(created.taskId)).status);

  // 3. Cancelling a running task.
  const slow = (await client.request("tools/call", {
    name: "render_video",
    arguments: { frames: 1000, msPerFrame: 50 },
  })) as { taskId: string };
  await client.cancelTask(slow.taskId);
  await client.awaitTask(slow.taskId).catch((error) => {
    console.log("cancelled:", error instanceof TaskCancelledError, (error as Error).name);
  });
} finally {
  await client.close();
  await server.close();
}
