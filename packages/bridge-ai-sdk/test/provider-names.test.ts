// SEP-986 tool names that providers refuse (dots, over 64 characters) become provider-valid keys of the
// AI SDK tool set, and executing a tool by its key reaches the server under its own name.
import { PassThrough } from "node:stream";
import { createClient } from "@mcpkit/client";
import { createServer } from "@mcpkit/server";
import { PROVIDER_TOOL_NAME_PATTERN } from "@mcpkit/tool-loop";
import { createStreamTransport } from "@mcpkit/transport-stdio";
import { afterEach, expect, it } from "vitest";
import { mcpToolSet } from "../src/index.js";

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

it("the set's keys are provider-valid and unique, and each execute reaches its server-side tool", async () => {
  const set = await mcpToolSet(await serverWithNames());
  const offered = Object.keys(set);
  expect(offered).toHaveLength(NAMES.length);
  for (const name of offered) expect(name).toMatch(PROVIDER_TOOL_NAME_PATTERN);
  const outputs = await Promise.all(
    offered.map((name, i) =>
      set[name]!.execute({}, { toolCallId: `t${i}`, abortSignal: new AbortController().signal }),
    ),
  );
  expect(outputs.map((output) => output.content).sort()).toEqual([...NAMES].sort());
});
