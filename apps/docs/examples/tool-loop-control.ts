// Controlling a run: which tools are offered (allow/deny lists and predicates per server, on name and
// annotations), per-tool timeouts (the call is cancelled, the model gets an error), how many calls of a
// turn run at once, the most model calls with a clear finish reason — and live tool lists: a server's
// `tools/list_changed` during the run is followed, so the next step offers the new list (a tool that
// vanished answers with an error result, never a throw).
// Run: pnpm --filter @mcpkit/docs example examples/tool-loop-control.ts
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer, type Server } from "@mcpkit/server";
import { aggregateTools, createScriptedModel, runToolLoop } from "@mcpkit/tool-loop";

const ops = createServer({ name: "ops", version: "1.0.0" });
ops.registerTool("status", { annotations: { readOnlyHint: true } }, () => "all green");
ops.registerTool("restart", { annotations: { destructiveHint: true } }, () => "restarted");
ops.registerTool(
  "slow_report",
  { annotations: { readOnlyHint: true } },
  (_args, context) =>
    new Promise((_resolve, reject) =>
      context.signal.addEventListener("abort", () => reject(new Error("cancelled"))),
    ),
);
const unlock = ops.registerTool("unlock", { annotations: { readOnlyHint: true } }, () => {
  ops.registerTool("secret", { annotations: { readOnlyHint: true } }, () => "the secret is 42");
  unlock.remove();
  return "unlocked";
});

async function connectInMemory(server: Server) {
  const [clientSide, serverSide] = createInMemoryPair();
  await server.connect(serverSide);
  const client = createClient({ name: "agent", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}
const client = await connectInMemory(ops);

// Offer only what does not destroy anything; follow list changes (live).
const tools = await aggregateTools(
  { ops: { source: client, exclude: (tool) => tool.annotations?.destructiveHint === true } },
  { live: true },
);
console.log("offered:", tools.tools.map((t) => t.name).join(", "));

const model = createScriptedModel([
  { toolCalls: [{ name: "ops__status" }, { name: "ops__slow_report" }, { name: "ops__unlock" }] },
  { toolCalls: [{ name: "ops__secret" }, { name: "ops__unlock" }] },
  { toolCalls: [{ name: "ops__status" }] },
  { text: "never reached" },
]);
const result = await runToolLoop({
  model,
  tools,
  messages: [{ role: "user", content: "Report" }],
  maxSteps: 3,
  maxConcurrency: 2,
  toolTimeout: (_call, info) => (info.tool === "slow_report" ? 50 : undefined),
  onEvent: (event) => {
    if (event.type === "tools-changed") console.log(`step ${event.step} sees: ${event.tools.join(", ")}`);
    if (event.type === "tool-result") console.log(`  ${event.call.name} → ${event.result.content}`);
  },
});
console.log(`finish: ${result.finishReason} after ${result.steps.length} model calls`);
await tools.close();
await client.close();
await ops.close();
