// SEP-986 tool names that providers refuse (dots, over 64 characters) reach OpenAI under provider-valid
// names, and a call by the offered name reaches the server under its own name (the renaming reverses).
import { PassThrough } from "node:stream";
import { createClient } from "@mcpkit/client";
import { createServer } from "@mcpkit/server";
import { PROVIDER_TOOL_NAME_PATTERN } from "@mcpkit/tool-loop";
import { createStreamTransport } from "@mcpkit/transport-stdio";
import { afterEach, expect, it } from "vitest";
import { mcpTools, mcpToolsRespond } from "../src/index.js";

const LONG = `reports.quarterly.${"x".repeat(100)}`;
/** Valid for MCP (SEP-986), not for providers: dots, over 64 characters, and a name rewriting would hit. */
const NAMES = ["files.read", "files_read", LONG];

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A client on a real server (stdio framing over in-process streams); each tool answers its own name. */
async function serverWithNames() {
  const server = createServer({ name: "names", version: "1" });
  for (const name of NAMES) server.registerTool(name, { description: `tool ${name}` }, () => name);
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  await server.connect(createStreamTransport({ readable: toServer, writable: toClient }));
  const client = createClient({ name: "t", version: "1" });
  await client.connect(createStreamTransport({ readable: toClient, writable: toServer }));
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  return client;
}

it("Chat Completions: offered names are provider-valid and unique, and each call reaches its server-side tool", async () => {
  const chat = await mcpTools(await serverWithNames());
  const offered = chat.tools.map((tool) => tool.function.name);
  expect(new Set(offered).size).toBe(NAMES.length);
  for (const name of offered) expect(name).toMatch(PROVIDER_TOOL_NAME_PATTERN);
  const replies = await chat.run({
    tool_calls: offered.map((name, i) => ({
      id: `c${i}`,
      type: "function" as const,
      function: { name, arguments: "{}" },
    })),
  });
  expect(replies.map((reply) => reply.content).sort()).toEqual([...NAMES].sort());
});

it("Responses: the same through function_call items", async () => {
  const respond = await mcpToolsRespond(await serverWithNames());
  const offered = respond.tools.map((tool) => tool.name);
  for (const name of offered) expect(name).toMatch(PROVIDER_TOOL_NAME_PATTERN);
  const outputs = await respond.run(
    offered.map((name, i) => ({ type: "function_call" as const, call_id: `c${i}`, name, arguments: "{}" })),
  );
  expect(outputs.map((output) => output.output).sort()).toEqual([...NAMES].sort());
});
