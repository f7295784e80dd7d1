// Sampling: a tool asks the CLIENT's model for a completion with `ctx.sample()` (deprecated in
// 2026-07-28 but still functional). The client runs its `sampling` handler — typically its own LLM call
// — and returns the message. Same handler in both eras.
// Run: pnpm --filter @mcpkit/docs example examples/sampling.ts

import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { z } from "zod";

const server = createServer({ name: "summarizer", version: "1.0.0" });
server.registerTool(
  "summarize",
  { inputSchema: z.object({ text: z.string() }), requiredClientCapabilities: { sampling: {} } },
  async ({ text }, ctx) => {
    const reply = await ctx.sample({
      messages: [{ role: "user", content: { type: "text", text: `Summarize: ${text}` } }],
      systemPrompt: "Answer in five words or fewer.",
      maxTokens: 50,
    });
    const block = Array.isArray(reply.content) ? reply.content[0] : reply.content;
    return `${reply.model} says: ${block?.type === "text" ? block.text : "?"}`;
  },
);

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({
  name: "docs",
  version: "1.0.0",
  handlers: {
    // A real host calls its model here (after asking the user, as the spec recommends).
    sampling: async (params) => {
      const first = params.messages[0]?.content;
      console.log("sampling request:", first && "text" in first ? first.text : "?");
      return { role: "assistant", model: "tiny-model", content: { type: "text", text: "Cats sleep a lot." } };
    },
  },
});
await client.connect(clientSide);
try {
  const result = await client.callTool("summarize", { text: "Cats spend most of the day asleep." });
  console.log(result.content);
} finally {
  await client.close();
  await server.close();
}
