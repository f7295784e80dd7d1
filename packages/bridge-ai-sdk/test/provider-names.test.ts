// SEP-986 tool names that providers refuse (dots, over 64 characters) become provider-valid keys of the
// AI SDK tool set, and executing a tool by its key reaches the server under its own name.
import { PROVIDER_TOOL_NAME_PATTERN } from "@mcpkit/tool-loop";
import { expect, it } from "vitest";
import {
  PROVIDER_REFUSED_NAMES,
  useNamedToolServers,
} from "../../tool-loop/test/support/named-tools-server.js";
import { mcpToolSet } from "../src/index.js";

const NAMES = PROVIDER_REFUSED_NAMES;

const serverWith = useNamedToolServers();

it("the set's keys are provider-valid and unique, and each execute reaches its server-side tool", async () => {
  const set = await mcpToolSet(await serverWith(NAMES));
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
