// A fixture server built with @mcpkit/server, shared by the in-memory and real-transport tests.
import { createServer, type Server } from "@mcpkit/server";
import type { InputHandlers } from "../src/index.js";

/** Handlers that answer what the fixture's `ask` tool asks. */
export const handlers: InputHandlers = {
  elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
  sampling: () => ({ role: "assistant", content: { type: "text", text: "sampled" }, model: "m" }),
  roots: () => [{ uri: "file:///work", name: "work" }],
};

export function fixture(): Server {
  const server = createServer({
    name: "our-server",
    version: "1.2.3",
    instructions: "fixture",
    cache: { ttlMs: 0 },
  });
  server.registerTool(
    "add",
    {
      description: "adds",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
    },
    (args) => ({ sum: (args.a as number) + (args.b as number) }),
  );
  server.registerTool("fail", { description: "fails" }, () => {
    throw new Error("it failed");
  });
  server.registerTool("progress", { description: "reports progress" }, async (_args, ctx) => {
    for (let i = 1; i <= 3; i++) await ctx.progress(i, 3, `step ${i}`);
    return "done";
  });
  server.registerTool("ask", { description: "elicits, samples and lists roots" }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    const sampled = await ctx.sample({
      messages: [{ role: "user", content: { type: "text", text: "hi" } }],
      maxTokens: 5,
    });
    const roots = await ctx.listRoots();
    const said =
      sampled.content && !Array.isArray(sampled.content) && sampled.content.type === "text"
        ? sampled.content.text
        : "";
    return `${(answer.content as { name?: string } | undefined)?.name}|${said}|${roots.roots.map((r) => r.uri).join(",")}`;
  });
  server.registerTool("log", { description: "logs" }, async (_args, ctx) => {
    await ctx.log("info", "hello from the tool");
    await ctx.log("debug", "too fine");
    return "logged";
  });
  server.registerResource("mem://readme", { name: "readme" }, () => "read me");
  server.registerResourceTemplate("mem://item/{id}", { name: "item" }, (_uri, vars) => `item ${vars.id}`);
  server.registerPrompt(
    "greet",
    {
      arguments: [{ name: "who", required: true }],
      complete: { who: (value) => ["world", "wombat"].filter((w) => w.startsWith(value)) },
    },
    (args) => `Hello, ${args.who}!`,
  );
  return server;
}
