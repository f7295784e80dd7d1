// The host's controls over a run: approvals, tool selection, timeouts, concurrency, live tool lists.
import { describe, expect, it } from "vitest";
import { aggregateTools } from "./aggregate.js";
import type { ToolResultMessage } from "./model.js";
import { runToolLoop, type ToolCallInfo } from "./run-tool-loop.js";
import { createScriptedModel } from "./scripted-model.js";
import { fakeSource } from "./test-support/fake-source.js";

const files = () =>
  fakeSource({
    read: {
      descriptor: { annotations: { readOnlyHint: true } },
      handler: (a) => ({ content: `read ${String(a.path)}` }),
    },
    remove: {
      descriptor: { annotations: { destructiveHint: true } },
      handler: (a) => ({ content: `removed ${String(a.path)}` }),
    },
  });

const toolResults = (messages: readonly unknown[]) =>
  (messages as { role: string }[]).filter((m): m is ToolResultMessage => m.role === "tool");

describe("approvals", () => {
  it("passes server, tool and annotations; a denial reaches the model as an error, an edit runs the edited call", async () => {
    const source = files();
    const tools = await aggregateTools({ fs: source });
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: "fs__read", arguments: { path: "/a" } },
          { name: "fs__remove", arguments: { path: "/" } },
          { name: "fs__remove", arguments: { path: "/tmp/x" } },
        ],
      },
      { text: "{{results}}" },
    ]);
    const asked: Omit<ToolCallInfo, "signal" | "descriptor">[] = [];
    const result = await runToolLoop({
      model,
      tools,
      messages: [],
      approve: (call, info) => {
        asked.push({ server: info.server, tool: info.tool, annotations: info.annotations, step: info.step });
        if (info.annotations?.readOnlyHint) return "allow"; // auto-approve read-only tools
        const path = (call.arguments as { path: string }).path;
        if (path === "/") return { deny: "not the root" };
        return { arguments: { path: `${path}.bak` } };
      },
    });
    expect(asked).toEqual([
      { server: "fs", tool: "read", annotations: { readOnlyHint: true }, step: 0 },
      { server: "fs", tool: "remove", annotations: { destructiveHint: true }, step: 0 },
      { server: "fs", tool: "remove", annotations: { destructiveHint: true }, step: 0 },
    ]);
    expect(source.calls).toEqual([
      { name: "read", args: { path: "/a" } },
      { name: "remove", args: { path: "/tmp/x.bak" } },
    ]);
    const sent = toolResults(model.requests[1]!.messages);
    expect(sent.map((m) => [m.isError, m.content])).toEqual([
      [false, "read /a"],
      [true, 'The call of tool "fs__remove" was denied by the user: not the root. Do not retry it as it is.'],
      [false, "removed /tmp/x.bak"],
    ]);
    // The transcript keeps what the model asked for; the result says what ran.
    expect(result.messages[0]).toMatchObject({ toolCalls: [{}, {}, { arguments: { path: "/tmp/x" } }] });
  });

  it("asks one call at a time, before any runs, and skips unknown tools", async () => {
    const order: string[] = [];
    const source = fakeSource({
      a: {
        handler: () => {
          order.push("run a");
          return { content: "a" };
        },
      },
      b: {
        handler: () => {
          order.push("run b");
          return { content: "b" };
        },
      },
    });
    const tools = await aggregateTools(source);
    const model = createScriptedModel([
      { toolCalls: [{ name: "a" }, { name: "nope" }, { name: "b" }] },
      { text: "done" },
    ]);
    await runToolLoop({
      model,
      tools,
      messages: [],
      approve: async (call) => {
        order.push(`ask ${call.name}`);
        return false;
      },
    });
    expect(order).toEqual(["ask a", "ask b"]);
    expect(source.calls).toEqual([]);
  });
});

describe("selection, timeouts, concurrency, steps", () => {
  it("offers only the tools an allow list and an annotation predicate keep", async () => {
    const tools = await aggregateTools([
      { source: files(), prefix: "ro", exclude: (tool) => tool.annotations?.destructiveHint === true },
      { source: fakeSource({ x: {}, y: {} }), include: ["y"] },
    ]);
    expect(tools.tools.map((tool) => tool.name)).toEqual(["ro__read", "y"]);
  });

  it("a call past its timeout is cancelled and answered with an error; the run goes on", async () => {
    let cancelled = false;
    const source = fakeSource({
      hang: {
        handler: (_args, signal) =>
          new Promise((_resolve, reject) => {
            signal?.addEventListener("abort", () => {
              cancelled = true;
              reject(signal.reason);
            });
          }),
      },
      quick: {},
    });
    const tools = await aggregateTools(source);
    const model = createScriptedModel([
      { toolCalls: [{ name: "hang" }, { name: "quick" }] },
      { text: "{{results}}" },
    ]);
    const timeouts: string[] = [];
    const result = await runToolLoop({
      model,
      tools,
      messages: [],
      // The hanging tool never answers, so 1 ms always passes first; the quick one has no limit.
      toolTimeout: (call) => {
        timeouts.push(call.name);
        return call.name === "hang" ? 1 : undefined;
      },
    });
    expect(cancelled).toBe(true);
    expect(timeouts).toEqual(["hang", "quick"]);
    expect(result.text).toBe('Tool "hang" timed out after 1 ms and was cancelled\nquick ok');
  });

  it("runs at most maxConcurrency calls of a turn at once", async () => {
    let running = 0;
    let peak = 0;
    const source = fakeSource({
      t: {
        handler: async () => {
          running++;
          peak = Math.max(peak, running);
          await Promise.resolve();
          await Promise.resolve();
          running--;
          return { content: "ok" };
        },
      },
    });
    const tools = await aggregateTools(source);
    const model = createScriptedModel([
      { toolCalls: [{ name: "t" }, { name: "t" }, { name: "t" }, { name: "t" }, { name: "t" }] },
      { text: "{{results}}" },
    ]);
    const result = await runToolLoop({ model, tools, messages: [], maxConcurrency: 2 });
    expect(peak).toBe(2);
    expect(result.text.split("\n")).toHaveLength(5);
    await expect(runToolLoop({ model, tools, messages: [], maxConcurrency: 0 })).rejects.toThrow(RangeError);
  });
});

describe("live tool lists", () => {
  it("a list_changed mid-loop offers the new list on the next step; a vanished tool answers with an error", async () => {
    const defs: Record<string, object> = { old_tool: {}, kept: {} };
    const source = fakeSource(defs);
    const tools = await aggregateTools({ s: source });
    const model = createScriptedModel([
      () => {
        // The server changes its tools while the model thinks: one goes, one comes.
        delete defs.old_tool;
        defs.new_tool = {};
        source.toolsStale = true;
        return { text: "", toolCalls: [{ id: "c1", name: "s__kept", arguments: {} }] };
      },
      { toolCalls: [{ name: "s__new_tool" }, { name: "s__old_tool" }] },
      { text: "{{results}}" },
    ]);
    const changes: string[][] = [];
    const result = await runToolLoop({
      model,
      tools,
      messages: [],
      onEvent: (event) => {
        if (event.type === "tools-changed") changes.push([...event.tools]);
      },
    });
    expect(model.requests.map((r) => r.tools.map((t) => t.name))).toEqual([
      ["s__old_tool", "s__kept"],
      ["s__kept", "s__new_tool"],
      ["s__kept", "s__new_tool"],
    ]);
    expect(changes).toEqual([["s__kept", "s__new_tool"]]);
    expect(source.lists).toBe(2);
    expect(result.text).toBe(
      'new_tool ok\nUnknown tool "s__old_tool". Available tools: s__kept, s__new_tool',
    );
  });
});
