// SEP-986 tool names that providers refuse (dots, over 64 characters) reach OpenAI under provider-valid
// names, and a call by the offered name reaches the server under its own name (the renaming reverses).
import { PROVIDER_TOOL_NAME_PATTERN } from "@mcpkit/tool-loop";
import { expect, it } from "vitest";
import {
  PROVIDER_REFUSED_NAMES,
  useNamedToolServers,
} from "../../tool-loop/test/support/named-tools-server.js";
import { mcpTools, mcpToolsRespond } from "../src/index.js";

const NAMES = PROVIDER_REFUSED_NAMES;

const serverWith = useNamedToolServers();

it("Chat Completions: offered names are provider-valid and unique, and each call reaches its server-side tool", async () => {
  const chat = await mcpTools(await serverWith(NAMES));
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
  const respond = await mcpToolsRespond(await serverWith(NAMES));
  const offered = respond.tools.map((tool) => tool.name);
  for (const name of offered) expect(name).toMatch(PROVIDER_TOOL_NAME_PATTERN);
  const outputs = await respond.run(
    offered.map((name, i) => ({ type: "function_call" as const, call_id: `c${i}`, name, arguments: "{}" })),
  );
  expect(outputs.map((output) => output.output).sort()).toEqual([...NAMES].sort());
});
