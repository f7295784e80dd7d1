// Elicitation, form mode: a tool asks the user for structured input mid-call with `ctx.elicit()`.
// The client answers with its `elicitation` handler. The SAME code works in both eras: a legacy
// session sends `elicitation/create` to the client; a 2026-07-28 request ends with `input_required`
// and the client's retry re-runs the handler with the answer (see mrtr.ts).
// Run: pnpm --filter @mcpkit/docs example examples/elicitation-form.ts

import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";

const server = createServer({ name: "booking", version: "1.0.0" });
server.registerTool("book_table", { description: "Books a table" }, async (_args, ctx) => {
  const answer = await ctx.elicit({
    mode: "form",
    message: "How many guests, and when?",
    requestedSchema: {
      type: "object",
      properties: {
        guests: { type: "integer", minimum: 1, maximum: 12, title: "Guests" },
        time: { type: "string", enum: ["19:00", "20:30"], title: "Time" },
      },
      required: ["guests", "time"],
    },
  });
  if (answer.action !== "accept") return `No booking (the user chose to ${answer.action})`;
  return `Booked for ${answer.content?.guests} at ${answer.content?.time} (${ctx.era} era)`;
});

for (const era of ["modern", "legacy"] as const) {
  const [clientSide, serverSide] = createInMemoryPair();
  await server.connect(serverSide);
  const client = createClient({
    name: "docs",
    version: "1.0.0",
    versionNegotiation: era,
    handlers: {
      // A real host shows a form built from params.requestedSchema; this one answers at once.
      elicitation: async (params) => {
        console.log(`[${era}] the server asks: ${params.message}`);
        return { action: "accept", content: { guests: 4, time: "20:30" } };
      },
    },
  });
  await client.connect(clientSide);
  try {
    console.log(`[${era}]`, (await client.callTool("book_table")).content);
  } finally {
    await client.close();
  }
}
await server.close();
