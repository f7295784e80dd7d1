// Tools: input schemas written as plain JSON Schema or with zod (any Standard Schema), validated by the
// server before the handler runs; a handler's throw is a tool error the model can read, not a crash.
// Run: pnpm --filter @mcpkit/docs example examples/server-tools.ts
import { createServer, withInputSchema } from "@mcpkit/server";
import { connect, serve } from "mcpkit";
import { z } from "zod";

const server = createServer({ name: "tools-demo", version: "1.0.0" });

// 1. A plain JSON Schema (2020-12). The handler states the argument type; ajv enforces it at run time.
server.registerTool(
  "add",
  {
    description: "Adds two numbers",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  (args: { a: number; b: number }) => String(args.a + args.b),
);

// 2. A zod schema: `args` is inferred ({ text: string; times: number }), defaults are applied.
server.registerTool(
  "repeat",
  {
    description: "Repeats a text",
    inputSchema: z.object({ text: z.string().min(1), times: z.number().int().min(1).max(5).default(2) }),
  },
  ({ text, times }) => Array.from({ length: times }, () => text).join(" "),
);

// 3. The schema attached to the handler instead of the config.
server.registerTool(
  "shout",
  { description: "Upper-cases a text" },
  withInputSchema(z.object({ text: z.string() }), ({ text }) => text.toUpperCase()),
);

// 4. A throw becomes `isError: true` with the handler's message.
server.registerTool("divide", { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => {
  if (b === 0) throw new Error("cannot divide by zero");
  return String(a / b);
});

const http = await serve(server, { transport: "http", port: 0, block: false, onListening: () => {} });
try {
  await using client = await connect(http.url);
  for (const tool of await client.listTools()) {
    console.log(`tool ${tool.name}: ${JSON.stringify(tool.inputSchema.properties ?? {})}`);
  }
  console.log("add →", (await client.callTool("add", { a: 2, b: 3 })).content);
  console.log("repeat →", (await client.callTool("repeat", { text: "hi" })).content);
  console.log("shout →", (await client.callTool("shout", { text: "hello" })).content);
  const invalid = await client.callTool("add", { a: 2, b: "three" });
  console.log("add (invalid) → isError:", invalid.isError);
  const failed = await client.callTool("divide", { a: 1, b: 0 });
  console.log("divide by zero → isError:", failed.isError, "|", failed.content);
} finally {
  await http.close();
  await server.close();
}
