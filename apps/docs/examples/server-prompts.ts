// Prompts: templates of messages a user picks in a host. Arguments are declared as a list or as a zod
// schema; a handler returns a string (one user message), messages, or a full GetPromptResult.
// Run: pnpm --filter @mcpkit/docs example examples/server-prompts.ts

import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { embeddedResource, text } from "@mcpkit/protocol";
import { createServer } from "@mcpkit/server";
import { z } from "zod";

const server = createServer({ name: "prompts-demo", version: "1.0.0" });
server.registerPrompt(
  "greet",
  { description: "Greets someone", arguments: [{ name: "name", required: true }, { name: "style" }] },
  ({ name, style = "warm" }) => `Write a ${style} greeting for ${name}.`,
);
server.registerPrompt(
  "review",
  {
    description: "Reviews a piece of code",
    argsSchema: z.object({ code: z.string(), language: z.string().optional() }),
  },
  ({ code, language }) => [
    { role: "user", content: text(`Review this ${language ?? "code"}:`) },
    { role: "user", content: embeddedResource({ uri: "snippet://1", mimeType: "text/plain", text: code }) },
  ],
);

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({ name: "docs", version: "1.0.0" });
await client.connect(clientSide);
try {
  for (const prompt of await client.listPrompts()) {
    const args = (prompt.arguments ?? []).map((a) => `${a.name}${a.required ? "*" : ""}`);
    console.log(`prompt ${prompt.name}(${args.join(", ")})`);
  }
  const greet = await client.getPrompt("greet", { name: "Ada" });
  const [message] = greet.messages;
  console.log("greet:", message?.role, message?.content.type === "text" ? message.content.text : "");
  const review = await client.getPrompt("review", { code: "let x = 1", language: "typescript" });
  console.log("review:", review.messages.map((m) => m.content.type).join(" + "));
} finally {
  await client.close();
  await server.close();
}
