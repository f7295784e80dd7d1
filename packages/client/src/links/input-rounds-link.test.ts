import { describe, expect, it } from "vitest";
import { type SessionKit, sessionKit, unitChain, useSessionKits } from "../../test/unit-kit.js";
import { InputRequestError } from "../errors.js";
import { fulfil } from "../input-answers.js";
import type { Session } from "../session.js";
import type { InputRoundsOptions } from "./input-rounds-link.js";
import { Outbound } from "./link.js";

const kits = useSessionKits();

const ASK = { method: "roots/list" as const, params: {} };
const handlers = { roots: () => [{ uri: "file:///w", name: "w" }] };

/** The chain with these rounds options: `run` sends one request marked for rounds. */
function rounds(options: Partial<InputRoundsOptions> = {}) {
  const chain = unitChain({ rounds: { handlers, ...options } });
  return {
    run(s: Session, method: string, params: Record<string, unknown>) {
      const op = new Outbound(s, method, params, undefined);
      op.rounds = {};
      return chain.send(op) as Promise<Record<string, unknown>>;
    },
    /** A request not marked for rounds passes as it is. */
    plain: (s: Session, method: string, params: Record<string, unknown>) =>
      chain.request(s, method, params, undefined),
  };
}

async function kit(handlersOf: Parameters<typeof sessionKit>[0]): Promise<SessionKit> {
  const k = await sessionKit(handlersOf);
  kits.push(k);
  return k;
}

describe("inputRoundsLink", () => {
  it("answers input_required with the handlers and retries with the answers and the exact requestState", async () => {
    const k = await kit({
      "tools/call": (params) =>
        params.requestState === "s1"
          ? { resultType: "complete", content: [], seen: params.inputResponses }
          : { resultType: "input_required", inputRequests: { r: ASK }, requestState: "s1" },
    });
    const result = await rounds().run(k.session, "tools/call", { name: "a" });
    expect(result.seen).toEqual({ r: { roots: [{ uri: "file:///w", name: "w" }] } });
    const [first, second] = k.server.requests("tools/call");
    expect(first!.params.requestState).toBeUndefined();
    expect(second!.params).toMatchObject({ name: "a", requestState: "s1" });
  });

  it("stops after maxInputRounds", async () => {
    const k = await kit({
      "tools/call": () => ({ resultType: "input_required", inputRequests: { r: ASK }, requestState: "s" }),
    });
    await expect(rounds({ maxInputRounds: 2 }).run(k.session, "tools/call", {})).rejects.toThrow(
      InputRequestError,
    );
    expect(k.server.requests("tools/call")).toHaveLength(3);
  });

  it("awaits a task only when the client asked for tasks", async () => {
    const k = await kit({ "tools/call": () => ({ resultType: "task", taskId: "t1" }) });
    await expect(rounds().run(k.session, "tools/call", {})).rejects.toThrow(/did not ask for/);
    const polled: string[] = [];
    const withTasks = rounds({
      tasks: true,
      pollTask: async (_send, _s, id) => {
        polled.push(id);
        return { done: true };
      },
    });
    await expect(withTasks.run(k.session, "tools/call", {})).resolves.toEqual({ done: true });
    expect(polled).toEqual(["t1"]);
  });

  it("lets a request that is not marked for rounds pass untouched", async () => {
    const k = await kit({
      "tools/call": () => ({ resultType: "input_required", inputRequests: { r: ASK }, requestState: "s" }),
    });
    await expect(rounds().plain(k.session, "tools/call", {})).resolves.toMatchObject({
      resultType: "input_required",
    });
    expect(k.server.requests("tools/call")).toHaveLength(1);
  });
});

describe("fulfil", () => {
  it("answers only the keys asked for, keyed as asked", async () => {
    const k = await kit({});
    const out = await fulfil(
      handlers,
      k.session,
      { a: ASK, b: ASK },
      new AbortController().signal,
      (key) => key === "b",
    );
    expect(Object.keys(out)).toEqual(["b"]);
  });
});
