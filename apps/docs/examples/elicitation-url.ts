// Elicitation, URL mode: for input that must not pass through the client (a payment, an OAuth consent
// to a third party), the server sends the user to a URL. The client declares
// `elicitation: { url: {} }`, opens the URL (here: prints it) and answers accept / decline / cancel.
// Run: pnpm --filter @mcpkit/docs example examples/elicitation-url.ts

import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";

const server = createServer({ name: "payments", version: "1.0.0" });
server.registerTool("pay_invoice", { description: "Pays invoice 42" }, async (_args, ctx) => {
  const answer = await ctx.elicit({
    mode: "url",
    message: "Confirm the payment on the bank's page",
    url: "https://bank.example.com/confirm?invoice=42",
    elicitationId: "pay-42",
  });
  return answer.action === "accept" ? "The user went to the payment page" : `Payment ${answer.action}`;
});

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({
  name: "docs",
  version: "1.0.0",
  // Declaring capabilities.elicitation replaces the default { form: {} }: name both modes.
  capabilities: { elicitation: { form: {}, url: {} } },
  handlers: {
    elicitation: async (params) => {
      if (params.mode === "url") {
        console.log(`open ${params.url} (${params.message})`);
        return { action: "accept" };
      }
      return { action: "decline" };
    },
  },
});
await client.connect(clientSide);
try {
  console.log((await client.callTool("pay_invoice")).content);
} finally {
  await client.close();
  await server.close();
}
