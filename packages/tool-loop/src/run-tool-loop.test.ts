import { describe, expect, it } from "vitest";
import { aggregateTools } from "./aggregate.js";
import type { ToolResultMessage } from "./model.js";
import { runToolLoop } from "./run-tool-loop.js";
import { createScriptedModel } from "./scripted-model.js";
import { fakeSource } from "./test-support/fake-source.js";

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const calculator = () =>
  fakeSource({
    add: {
      descriptor: {
        inputSchema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
      },
      handler: (args) => ({ content: String(Number(args.a) + Number(args.b)) }),
    },
    stats: { handler: () => ({ content: "", structured: { mean: 2.5 } }) },
    broken: { handler: () => ({ content: "disk full", isError: true }) },
    gone: {
      handler: () => {
        throw new Error("connection closed");
      },
    },
  });

describe("runToolLoop", () => {
  it("calls the tools the model asks for, feeds their results back, and returns the answer and transcript", async () => {
    const source = calculator();
    const tools = await aggregateTools({ calc: source });
    const model = createScriptedModel([
      { toolCalls: [{ name: "calc__add", arguments: { a: 2, b: 3 } }] },
      { text: "2 + 3 = {{result}}" },
    ]);
    const result = await runToolLoop({ model, tools, messages: [{ role: "user", content: "add 2 and 3" }] });

    expect(result.text).toBe("2 + 3 = 5");
    expect(result.finishReason).toBe("stop");
    expect(source.calls).toEqual([{ name: "add", args: { a: 2, b: 3 } }]);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual([
      "calc__add",
      "calc__stats",
      "calc__broken",
      "calc__gone",
    ]);
    expect(model.requests[0]!.tools[0]!.inputSchema).toMatchObject({ required: ["a", "b"] });
    expect(result.messages).toEqual([
      { role: "user", content: "add 2 and 3" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "call_0_0", name: "calc__add", arguments: { a: 2, b: 3 } }],
      },
      { role: "tool", toolCallId: "call_0_0", name: "calc__add", content: "5", isError: false },
      { role: "assistant", content: "2 + 3 = 5" },
    ]);
    expect(result.steps.map((step) => step.toolResults.length)).toEqual([1, 0]);
  });

  it("falls back to the JSON of structured content, and marks isError results, local throws and unknown tools as errors", async () => {
    const tools = await aggregateTools(calculator());
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: "stats" },
          { name: "broken" },
          { name: "gone" },
          { name: "made_up" },
          { name: "add", arguments: "{not json" },
        ],
      },
      { text: "{{results}}" },
    ]);
    const result = await runToolLoop({ model, tools, messages: [{ role: "user", content: "go" }] });
    const sent = model.requests[1]!.messages.filter((m): m is ToolResultMessage => m.role === "tool");
    expect(sent.map((m) => [m.name, m.isError])).toEqual([
      ["stats", false],
      ["broken", true],
      ["gone", true],
      ["made_up", true],
      ["add", true],
    ]);
    expect(sent[0]).toMatchObject({ content: '{"mean":2.5}', structured: { mean: 2.5 } });
    expect(sent[1]!.content).toBe("disk full");
    expect(sent[2]!.content).toBe('Tool "gone" failed: connection closed');
    expect(sent[3]!.content).toBe('Unknown tool "made_up". Available tools: add, stats, broken, gone');
    expect(sent[4]!.content).toBe(
      'Invalid arguments for tool "add": expected a JSON object, got the text "{not json"',
    );
    expect(result.text.split("\n")).toHaveLength(5);
  });

  it("stops after maxSteps model calls, running the last step's calls so the transcript stays valid", async () => {
    const source = calculator();
    const tools = await aggregateTools(source);
    const always = () => ({
      text: "",
      toolCalls: [{ id: `c${source.calls.length}`, name: "add", arguments: { a: 1, b: 1 } }],
    });
    const model = createScriptedModel([always, always, always, always]);
    const result = await runToolLoop({
      model,
      tools,
      messages: [{ role: "user", content: "loop" }],
      maxSteps: 3,
    });
    expect(result.finishReason).toBe("max-steps");
    expect(model.requests).toHaveLength(3);
    expect(model.remaining).toBe(1);
    expect(source.calls).toHaveLength(3);
    expect(result.messages.at(-1)).toMatchObject({ role: "tool", content: "2" });
    await expect(runToolLoop({ model, tools, messages: [], maxSteps: 0 })).rejects.toThrow(RangeError);
  });

  it("runs one turn's calls concurrently by default, one after another when parallelToolCalls is false", async () => {
    let running = 0;
    let peak = 0;
    let expectParallel = true;
    const gate = deferred();
    const source = fakeSource({
      slow: {
        handler: async (args) => {
          running++;
          peak = Math.max(peak, running);
          if (running === 2) gate.resolve();
          // In the parallel run the first call holds until the second has started (bounded by the
          // test timeout): that only completes if both really run at once.
          if (args.wait === true && expectParallel) await gate.promise;
          running--;
          return { content: `done ${String(args.n)}` };
        },
      },
    });
    const tools = await aggregateTools(source);
    const script = () => [
      {
        toolCalls: [
          { name: "slow", arguments: { n: 1, wait: true } },
          { name: "slow", arguments: { n: 2 } },
        ],
      },
      { text: "{{results}}" },
    ];
    const parallel = await runToolLoop({ model: createScriptedModel(script()), tools, messages: [] });
    expect(peak).toBe(2);
    expect(parallel.text).toBe("done 1\ndone 2"); // call order, not completion order

    peak = 0;
    expectParallel = false;
    const sequentialModel = createScriptedModel(script());
    const sequential = await runToolLoop({
      model: sequentialModel,
      tools,
      messages: [],
      parallelToolCalls: false,
    });
    expect(peak).toBe(1);
    expect(sequential.text).toBe("done 1\ndone 2");
    expect(sequentialModel.requests[0]!.parallelToolCalls).toBe(false);
  });

  it("rejects with signal.reason when aborted during a tool call, without reporting it to the model", async () => {
    const started = deferred();
    let sawAbort = false;
    const source = fakeSource({
      hang: {
        handler: (_args, signal) =>
          new Promise((_resolve, reject) => {
            started.resolve();
            signal?.addEventListener("abort", () => {
              sawAbort = true;
              reject(new Error("tool saw abort"));
            });
          }),
      },
    });
    const tools = await aggregateTools(source);
    const model = createScriptedModel([{ toolCalls: [{ name: "hang" }] }, { text: "never" }]);
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    const run = runToolLoop({ model, tools, messages: [], signal: controller.signal });
    await started.promise;
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    expect(sawAbort).toBe(true);
    expect(model.requests).toHaveLength(1);

    // Already aborted: the model is never asked.
    const idle = createScriptedModel([{ text: "x" }]);
    await expect(
      runToolLoop({ model: idle, tools, messages: [], signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    expect(idle.requests).toHaveLength(0);
  });

  it("rejects at once on abort even when the model ignores its signal", async () => {
    const tools = await aggregateTools(fakeSource({}));
    const controller = new AbortController();
    const model = { generate: () => new Promise<never>(() => {}) };
    const run = runToolLoop({ model, tools, messages: [], signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(run).rejects.toThrow("stop");
  });

  it("lets beforeToolCall change arguments or answer without running, afterToolCall replace results, onStep observe", async () => {
    const source = calculator();
    const tools = await aggregateTools(source);
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: "add", arguments: { a: 1, b: 1 } },
          { name: "broken", arguments: {} },
        ],
      },
      { text: "{{results}}" },
    ]);
    const stepIndexes: number[] = [];
    const result = await runToolLoop({
      model,
      tools,
      messages: [],
      beforeToolCall: (call) =>
        call.name === "broken"
          ? { result: { content: "denied by policy", isError: true } }
          : { arguments: { a: 10, b: 20 } },
      afterToolCall: (call, outcome) =>
        call.name === "add" ? { ...outcome, content: `sum=${outcome.content}` } : undefined,
      onStep: (step) => {
        stepIndexes.push(step.index);
      },
    });
    expect(source.calls).toEqual([{ name: "add", args: { a: 10, b: 20 } }]);
    expect(result.text).toBe("sum=30\ndenied by policy");
    expect(stepIndexes).toEqual([0, 1]);
  });

  it("passes a provider error from the model through, not as a tool result", async () => {
    const tools = await aggregateTools(fakeSource({}));
    const model = createScriptedModel([]);
    await expect(runToolLoop({ model, tools, messages: [] })).rejects.toThrow(/the script has 0 turns/);
  });
});
