// Issue 25's tool-loop items: a destructive tool does not run unasked, and a live refresh never moves a
// name the model knows to another server's tool. Also: the host-readable code on every error result.
import { describe, expect, it } from "vitest";
import { aggregateTools } from "./aggregate.js";
import type { ToolResultMessage } from "./model.js";
import { runToolLoop } from "./run-tool-loop.js";
import { createScriptedModel } from "./scripted-model.js";
import { fakeSource } from "./test-support/fake-source.js";

const toolResults = (messages: readonly unknown[]) =>
  (messages as { role: string }[]).filter((m): m is ToolResultMessage => m.role === "tool");

const ops = () =>
  fakeSource({
    wipe: { descriptor: { annotations: { destructiveHint: true } }, handler: () => ({ content: "wiped" }) },
    peek: {
      descriptor: { annotations: { destructiveHint: true, readOnlyHint: true } },
      handler: () => ({ content: "peeked" }),
    },
    plain: { handler: () => ({ content: "plain ok" }) },
  });

describe("[issue-25.weak] a destructive tool needs an approval", () => {
  it("with no approve hook, destructiveHint (and not readOnlyHint) is refused to the model, not run", async () => {
    const source = ops();
    const tools = await aggregateTools(source);
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: "wipe", arguments: {} },
          { name: "peek", arguments: {} },
          { name: "plain", arguments: {} },
        ],
      },
      { text: "done" },
    ]);
    const approvals: string[] = [];
    await runToolLoop({
      model,
      tools,
      messages: [],
      onEvent: (event) => {
        if (event.type === "tool-call") approvals.push(`${event.call.name}:${event.approval}`);
      },
    });
    expect(source.calls.map((call) => call.name)).toEqual(["peek", "plain"]);
    expect(approvals).toEqual(["wipe:denied", "peek:allowed", "plain:allowed"]);
    expect(toolResults(model.requests[1]!.messages)[0]).toMatchObject({
      name: "wipe",
      isError: true,
      errorCode: "approval-required",
      content:
        'The tool "wipe" is marked destructive and needs the user\'s approval, which this app cannot ask for; it was not run. Do not retry it; tell the user what you wanted to do instead.',
    });
  });

  it("allowDestructive: true opts in; an approve hook decides on its own", async () => {
    const optedIn = ops();
    await runToolLoop({
      model: createScriptedModel([{ toolCalls: [{ name: "wipe", arguments: {} }] }, { text: "ok" }]),
      tools: await aggregateTools(optedIn),
      messages: [],
      allowDestructive: true,
    });
    expect(optedIn.calls.map((call) => call.name)).toEqual(["wipe"]);
    const asked = ops();
    await runToolLoop({
      model: createScriptedModel([{ toolCalls: [{ name: "wipe", arguments: {} }] }, { text: "ok" }]),
      tools: await aggregateTools(asked),
      messages: [],
      approve: () => "allow",
    });
    expect(asked.calls.map((call) => call.name)).toEqual(["wipe"]);
  });
});

describe("[issue-25.weak] a live refresh never re-points a name to another server", () => {
  it("a name another server's tool wants after the first one left gets a hash suffix, not the old name", async () => {
    const aTools: Record<string, object> = { search: {} };
    const bTools: Record<string, object> = { lookup: {} };
    const a = fakeSource(aTools);
    const b = fakeSource(bTools);
    const tools = await aggregateTools([
      { source: a, id: "a" },
      { source: b, id: "b" },
    ]);
    expect(tools.resolve("search")).toMatchObject({ sourceId: "a" });
    delete aTools.search;
    bTools.search = {};
    await tools.refresh({ all: true });
    // The model still knows "search" as a's tool: calling it must not run b's.
    expect(tools.resolve("search")).toBeUndefined();
    await expect(tools.call("search", {})).rejects.toThrow('Unknown tool "search"');
    expect(b.calls).toEqual([]);
    const moved = tools.localName("b", "search");
    expect(moved).toMatch(/^search_[0-9a-f]{8}$/);
    aTools.search = {};
    await tools.refresh({ all: true });
    expect(tools.resolve("search")).toMatchObject({ sourceId: "a" });
    expect(tools.localName("b", "search")).toBe(moved);
  });

  it("a rewritten name keeps its tool when another server adds a tool of exactly that name", async () => {
    const aTools: Record<string, object> = { "x.y": {} };
    const bTools: Record<string, object> = {};
    const a = fakeSource(aTools);
    const b = fakeSource(bTools);
    const tools = await aggregateTools([
      { source: a, id: "a" },
      { source: b, id: "b" },
    ]);
    expect(tools.localName("a", "x.y")).toBe("x_y");
    bTools.x_y = {};
    await tools.refresh({ all: true });
    expect(tools.resolve("x_y")).toMatchObject({ sourceId: "a", serverName: "x.y" });
    expect(tools.localName("b", "x_y")).toMatch(/^x_y_[0-9a-f]{8}$/);
  });
});

describe("error results carry a code the host can read", () => {
  it("unknown tool, arguments that are not an object, denied, a tool error", async () => {
    const source = fakeSource({
      fails: { handler: () => ({ content: "disk full", isError: true }) },
      guarded: {},
    });
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: "nope", arguments: {} },
          { name: "fails", arguments: "not json" },
          { name: "guarded", arguments: {} },
          { name: "fails", arguments: {} },
        ],
      },
      { text: "ok" },
    ]);
    await runToolLoop({
      model,
      tools: await aggregateTools(source),
      messages: [],
      approve: (call) => (call.name === "guarded" ? "deny" : "allow"),
    });
    expect(toolResults(model.requests[1]!.messages).map((m) => m.errorCode)).toEqual([
      "unknown-tool",
      "invalid-arguments",
      "denied",
      "tool-error",
    ]);
  });
});
