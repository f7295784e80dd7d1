// Approvals: `approve(call, { server, tool, annotations })` runs before each call — allow it, deny it
// with a reason (the model gets an error result saying so and the tool does not run), or edit its
// arguments. Annotations let a host auto-approve read-only tools and ask only for the rest; the calls
// of one turn are asked one at a time, before any runs.
// Run: pnpm --filter @mcpkit/docs example examples/tool-loop-approval.ts
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { aggregateTools, createScriptedModel, runToolLoop } from "@mcpkit/tool-loop";
import { z } from "zod";

const server = createServer({ name: "files", version: "1.0.0" });
server.registerTool(
  "read",
  { inputSchema: z.object({ path: z.string() }), annotations: { readOnlyHint: true } },
  ({ path }) => `contents of ${path}`,
);
server.registerTool(
  "delete",
  { inputSchema: z.object({ path: z.string() }), annotations: { destructiveHint: true } },
  ({ path }) => `deleted ${path}`,
);
const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const files = createClient({ name: "agent", version: "1.0.0" });
await files.connect(clientSide);

const tools = await aggregateTools({ files });
const model = createScriptedModel([
  {
    toolCalls: [
      { name: "files__read", arguments: { path: "notes.txt" } },
      { name: "files__delete", arguments: { path: "/" } },
      { name: "files__delete", arguments: { path: "tmp/cache" } },
    ],
  },
  { text: "{{results}}" },
]);
const result = await runToolLoop({
  model,
  tools,
  messages: [{ role: "user", content: "Tidy up" }],
  approve: (call, { server: source, tool, annotations }) => {
    if (annotations?.readOnlyHint) return "allow"; // read-only: no question
    const { path } = call.arguments as { path: string };
    console.log(`asked: ${source}/${tool} ${path}`); // a real host would prompt the user here
    if (path === "/") return { deny: "never the root" };
    return { arguments: { path: `${path}/old` } }; // allowed, but narrowed
  },
  onEvent: (event) => {
    if (event.type === "tool-call")
      console.log(`${event.approval}: ${event.call.name} ${JSON.stringify(event.call.arguments)}`);
  },
});
console.log(result.text);
await files.close();
await server.close();
