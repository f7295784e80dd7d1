import { describe, expect, it } from "vitest";
import { sessionKit, unitExchange, useSessionKits } from "../test/unit-kit.js";
import { InputRequestError } from "./errors.js";
import { fulfil, InputRounds, type InputRoundsHooks } from "./input-rounds.js";

const kits = useSessionKits();

const ASK = { method: "roots/list" as const, params: {} };
const handlers = { roots: () => [{ uri: "file:///w", name: "w" }] };

function rounds(hooks: Partial<InputRoundsHooks> = {}) {
  const exchange = unitExchange();
  return new InputRounds(exchange, {
    handlers,
    lifetime: new AbortController().signal,
    maxInputRounds: 10,
    tasks: false,
    pollTask: async () => ({}),
    ...hooks,
  });
}

describe("InputRounds", () => {
  it("answers input_required with the handlers and retries with the answers and the exact requestState", async () => {
    const kit = await sessionKit({
      "tools/call": (params) =>
        params.requestState === "s1"
          ? { resultType: "complete", content: [], seen: params.inputResponses }
          : { resultType: "input_required", inputRequests: { r: ASK }, requestState: "s1" },
    });
    kits.push(kit);
    const result = await rounds().run(kit.session, "tools/call", { name: "a" }, undefined);
    expect(result.seen).toEqual({ r: { roots: [{ uri: "file:///w", name: "w" }] } });
    const [first, second] = kit.server.requests("tools/call");
    expect(first!.params.requestState).toBeUndefined();
    expect(second!.params).toMatchObject({ name: "a", requestState: "s1" });
  });

  it("stops after maxInputRounds", async () => {
    const kit = await sessionKit({
      "tools/call": () => ({ resultType: "input_required", inputRequests: { r: ASK }, requestState: "s" }),
    });
    kits.push(kit);
    await expect(rounds({ maxInputRounds: 2 }).run(kit.session, "tools/call", {}, undefined)).rejects.toThrow(
      InputRequestError,
    );
    expect(kit.server.requests("tools/call")).toHaveLength(3);
  });

  it("awaits a task only when the client asked for tasks", async () => {
    const kit = await sessionKit({ "tools/call": () => ({ resultType: "task", taskId: "t1" }) });
    kits.push(kit);
    await expect(rounds().run(kit.session, "tools/call", {}, undefined)).rejects.toThrow(/did not ask for/);
    const polled: string[] = [];
    const withTasks = rounds({
      tasks: true,
      pollTask: async (_s, id) => {
        polled.push(id);
        return { done: true };
      },
    });
    await expect(withTasks.run(kit.session, "tools/call", {}, undefined)).resolves.toEqual({ done: true });
    expect(polled).toEqual(["t1"]);
  });
});

describe("fulfil", () => {
  it("answers only the keys asked for, keyed as asked", async () => {
    const kit = await sessionKit({});
    kits.push(kit);
    const out = await fulfil(
      handlers,
      kit.session,
      { a: ASK, b: ASK },
      new AbortController().signal,
      (k) => k === "b",
    );
    expect(Object.keys(out)).toEqual(["b"]);
  });
});
