// SEP-986 tool names that providers refuse (dots, over 64 characters) reach Anthropic under
// provider-valid names, and a tool_use by the offered name reaches the server under its own name.
import { PROVIDER_TOOL_NAME_PATTERN } from "@mcpkit/tool-loop";
import { expect, it } from "vitest";
import {
  PROVIDER_REFUSED_NAMES,
  useNamedToolServers,
} from "../../tool-loop/test/support/named-tools-server.js";
import { mcpTools } from "../src/index.js";

const NAMES = PROVIDER_REFUSED_NAMES;

const serverWith = useNamedToolServers();

it("offered names are provider-valid and unique, and each tool_use reaches its server-side tool", async () => {
  const tools = await mcpTools(await serverWith(NAMES));
  const offered = tools.tools.map((tool) => tool.name);
  expect(new Set(offered).size).toBe(NAMES.length);
  for (const name of offered) expect(name).toMatch(PROVIDER_TOOL_NAME_PATTERN);
  const reply = await tools.run({
    content: offered.map((name, i) => ({ type: "tool_use" as const, id: `t${i}`, name, input: {} })),
  });
  expect(reply.content.map((block) => block.content).sort()).toEqual([...NAMES].sort());
});
