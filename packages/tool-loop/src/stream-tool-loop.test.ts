import { describe, expect, it } from "vitest";
import { aggregateTools } from "./aggregate.js";
import type { LoopEvent } from "./loop-events.js";
import { createScriptedModel } from "./scripted-model.js";
import { streamToolLoop } from "./stream-tool-loop.js";
import { fakeSource } from "./test-support/fake-source.js";

function summary(event: LoopEvent): string {
  switch (event.type) {
    case "text-delta":
    case "reasoning-delta":
      return `${event.step}:${event.type}:${event.text}`;
    case "tool-input-delta":
      return `${event.step}:${event.type}:${event.name}:${event.delta}`;
    case "tool-call":
      return `${event.step}:tool-call:${event.call.name}:${JSON.stringify(event.call.arguments)}:${event.approval}`;
    case "tool-progress":
      return `${event.step}:tool-progress:${event.progress.progress}/${event.progress.total}`;
    case "tool-result":
      return `${event.step}:tool-result:${event.result.content}`;
    case "tools-changed":
      return `${event.step}:tools-changed:${event.tools.join(",")}`;
    case "step-finish":
      return `${event.step}:step-finish`;
    case "finish":
      return `finish:${event.result.finishReason}`;
  }
}

describe("streamToolLoop", () => {
  it("hands out deltas, the call with its arguments, progress, the result, step ends and the finish, in order", async () => {
    const source = fakeSource({
      add: {
        handler: (args, _signal, onProgress) => {
          onProgress?.({ progress: 1, total: 2 });
          onProgress?.({ progress: 2, total: 2 });
          return { content: String(Number(args.a) + Number(args.b)) };
        },
      },
    });
    const tools = await aggregateTools(source);
    const model = createScriptedModel([
      { reasoning: "need a sum", text: "Adding.", toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] },
      { text: "It is {{result}}." },
    ]);
    const stream = streamToolLoop({ model, tools, messages: [{ role: "user", content: "2+3" }] });
    const seen: string[] = [];
    for await (const event of stream) seen.push(summary(event));
    expect(seen).toEqual([
      "0:reasoning-delta:need a sum",
      "0:text-delta:Adding.",
      '0:tool-input-delta:add:{"a":2,',
      '0:tool-input-delta:add:"b":3}',
      '0:tool-call:add:{"a":2,"b":3}:allowed',
      "0:tool-progress:1/2",
      "0:tool-progress:2/2",
      "0:tool-result:5",
      "0:step-finish",
      "1:text-delta:It ",
      "1:text-delta:is ",
      "1:text-delta:5.",
      "1:step-finish",
      "finish:stop",
    ]);
    const result = await stream.result;
    expect(result.text).toBe("It is 5.");
    // The reasoning block stays on its assistant turn, so a bridge can send it back.
    expect(result.messages[1]).toMatchObject({ role: "assistant", reasoning: [{ text: "need a sum" }] });
    expect(model.requests[1]!.messages[1]).toMatchObject({ reasoning: [{ provider: "scripted" }] });
  });

  it("leaving the iteration early aborts the run and the tool call in flight", async () => {
    let sawAbort = false;
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const source = fakeSource({
      hang: {
        handler: (_args, signal) =>
          new Promise((_resolve, reject) => {
            started();
            signal?.addEventListener("abort", () => {
              sawAbort = true;
              reject(signal.reason);
            });
          }),
      },
    });
    const tools = await aggregateTools(source);
    const model = createScriptedModel([{ toolCalls: [{ name: "hang" }] }, { text: "never" }]);
    const stream = streamToolLoop({ model, tools, messages: [] });
    for await (const event of stream) {
      if (event.type === "tool-call") {
        await running;
        break;
      }
    }
    expect(sawAbort).toBe(true);
    await expect(stream.result).rejects.toMatchObject({ name: "AbortError" });
    expect(model.requests).toHaveLength(1);
  });

  it("an outer abort ends the iteration with the signal's reason", async () => {
    const tools = await aggregateTools(fakeSource({}));
    const controller = new AbortController();
    const model = { generate: () => new Promise<never>(() => {}) };
    const stream = streamToolLoop({ model, tools, messages: [], signal: controller.signal });
    const reason = new Error("user pressed stop");
    controller.abort(reason);
    await expect(
      (async () => {
        for await (const _ of stream) {
          // nothing arrives
        }
      })(),
    ).rejects.toBe(reason);
    await expect(stream.result).rejects.toBe(reason);
  });

  it("falls back to generate for a model without stream, one delta per turn", async () => {
    const tools = await aggregateTools(fakeSource({}));
    const scripted = createScriptedModel([{ text: "hello there" }]);
    const model = { generate: scripted.generate.bind(scripted) };
    const events: string[] = [];
    for await (const event of streamToolLoop({ model, tools, messages: [] })) events.push(summary(event));
    expect(events).toEqual(["0:text-delta:hello there", "0:step-finish", "finish:stop"]);
  });
});
