// SEP-986 tool names that providers refuse (dots, over 64 characters) reach Anthropic under
// provider-valid names, and a tool_use by the offered name reaches the server under its own name.
import { PassThrough } from "node:stream";
import { createClient } from "@mcpkit/client";
import { createServer } from "@mcpkit/server";
import { PROVIDER_TOOL_NAME_PATTERN } from "@mcpkit/tool-loop";
import { createStreamTransport } from "@mcpkit/transport-stdio";
import { afterEach, expect, it } from "vitest";
import { mcpTools } from "../src/index.js";

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

it("offered names are provider-valid and unique, and each tool_use reaches its server-side tool", async () => {
  const tools = await mcpTools(await serverWithNames());
  const offered = tools.tools.map((tool) => tool.name);
  expect(new Set(offered).size).toBe(NAMES.length);
  for (const name of offered) expect(name).toMatch(PROVIDER_TOOL_NAME_PATTERN);
  const reply = await tools.run({
    content: offered.map((name, i) => ({ type: "tool_use" as const, id: `t${i}`, name, input: {} })),
  });
  expect(reply.content.map((block) => block.content).sort()).toEqual([...NAMES].sort());
});
