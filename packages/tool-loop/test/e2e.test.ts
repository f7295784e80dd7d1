import type { Client } from "@mcpkit/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregateTools, createScriptedModel, runToolLoop, type ToolResultMessage } from "../src/index.js";
import { connectCalcServer, stderrLines } from "./support/calc-server.js";

describe("runToolLoop against a real MCP server over stdio", () => {
  let client: Client;
  const stderr = stderrLines();
  beforeAll(async () => {
    client = await connectCalcServer({ onStderr: (line) => stderr.push(line) });
  });
  afterAll(async () => {
    await client?.close();
  });

  it("runs the tools the scripted model asks for and answers with their results", async () => {
    const tools = await aggregateTools({ calc: client });
    expect(tools.tools.map((tool) => [tool.name, tool.serverName])).toEqual([
      ["calc__add", "add"],
      ["calc__weather_lookup", "weather.lookup"],
      ["calc__fail", "fail"],
      ["calc__hang", "hang"],
    ]);
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: "calc__add", arguments: { a: 2, b: 3 } },
          { name: "calc__weather_lookup", arguments: { city: "Oslo" } },
          { name: "calc__fail" },
          { name: "calc__add", arguments: { a: "two" } },
        ],
      },
      { text: "sum={{result:calc__add}} weather={{result:calc__weather_lookup}}" },
    ]);
    const result = await runToolLoop({ model, tools, messages: [{ role: "user", content: "2+3, Oslo?" }] });
    const sent = model.requests[1]!.messages.filter((m): m is ToolResultMessage => m.role === "tool");
    expect(sent[0]).toMatchObject({ content: "5", isError: false });
    expect(sent[1]).toMatchObject({ content: '{"city":"Oslo","tempC":21}', isError: false });
    expect(sent[2]).toMatchObject({ isError: true });
    expect(sent[2]!.content).toContain("disk full");
    // Arguments that break the schema are answered by the loop's own check, before the server.
    expect(sent[3]).toMatchObject({ isError: true, errorCode: "invalid-arguments" });
    expect(result.text).toMatch(/^sum=.* weather=\{"city":"Oslo","tempC":21\}$/);
  });

  it("cancels the MCP request when the run is aborted", async () => {
    const tools = await aggregateTools(client);
    const controller = new AbortController();
    const reason = new Error("user pressed stop");
    const model = createScriptedModel([{ toolCalls: [{ name: "hang" }] }]);
    const started = stderr.next("hang: started");
    const cancelled = stderr.next("hang: cancelled");
    const run = runToolLoop({ model, tools, messages: [], signal: controller.signal });
    await started;
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    await cancelled; // the server saw notifications/cancelled and aborted its handler
    // The client still works afterwards.
    expect((await client.callTool("add", { a: 1, b: 1 })).content).toBe("2");
  });
});
