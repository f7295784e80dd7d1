import { McpError } from "@mcpkit/protocol";
import { describe, expect, it } from "vitest";
import { errorOf, fakeRctx, modernCall } from "../test/unit-kit.js";
import { Context } from "./internal/context.js";
import { RequestStateSealer } from "./internal/request-state.js";
import { MrtrAttempt, runAttempt } from "./mrtr-attempt.js";

const sealer = new RequestStateSealer("unit-key", 60_000);
const identity = ["tools/call", "ask", { q: 1 }] as const;
const fail = () => {
  throw new Error("not expected");
};

describe("MrtrAttempt", () => {
  it("opens a first attempt synchronously, with the inputResponses as its answers", () => {
    const attempt = MrtrAttempt.open(sealer, ...identity, { inputResponses: { a: 1 } });
    expect(attempt).toBeInstanceOf(MrtrAttempt);
    expect((attempt as MrtrAttempt).answers).toEqual({ a: 1 });
    expect((attempt as MrtrAttempt).asked).toBe(false);
    expect(() => MrtrAttempt.open(sealer, ...identity, { inputResponses: [] })).toThrow(
      "inputResponses must be an object keyed by input request",
    );
  });

  it("seals what the handler used; the token opens only for the same call", async () => {
    const first = MrtrAttempt.open(sealer, ...identity, {}) as MrtrAttempt;
    const ctx = new Context(modernCall("tools/call"), first);
    ctx.state.set("step", 1);
    first.pending.x = { method: "roots/list", params: {} } as never;
    first.consumed.y = "yes";
    expect(first.asked).toBe(true);
    const result = await first.inputRequired(ctx);
    expect(result).toMatchObject({
      resultType: "input_required",
      inputRequests: { x: { method: "roots/list" } },
    });
    const p = { requestState: result.requestState, inputResponses: { x: { roots: [] } } };
    const second = await MrtrAttempt.open(sealer, ...identity, p);
    expect(second.answers).toEqual({ y: "yes", x: { roots: [] } });
    expect(second.values).toEqual({ step: 1 });
    const other = await errorOf(() => MrtrAttempt.open(sealer, "tools/call", "ask", { q: 2 }, p));
    expect(other).toBeInstanceOf(McpError);
    expect(other.message).toBe("Invalid requestState");
  });
});

describe("runAttempt", () => {
  const ctxOf = (attempt?: MrtrAttempt, rctx = fakeRctx()) =>
    new Context(modernCall("tools/call", { roots: {} }, rctx), attempt);

  it("hands a result to onResult and a throw to onError", async () => {
    expect(
      await runAttempt(
        ctxOf(),
        () => 2,
        (v) => ({ v }),
        fail,
      ),
    ).toEqual({ v: 2 });
    expect(
      await runAttempt(
        ctxOf(),
        async () => 3,
        (v) => ({ v }),
        fail,
      ),
    ).toEqual({ v: 3 });
    const boom = () => {
      throw new Error("boom");
    };
    expect(await runAttempt(ctxOf(), boom, fail, (e) => ({ e: (e as Error).message }))).toEqual({
      e: "boom",
    });
  });

  it("rethrows protocol errors as they are", async () => {
    const error = McpError.invalidParams("nope");
    const run = () => {
      throw error;
    };
    expect(await errorOf(() => runAttempt(ctxOf(), run, fail, fail))).toBe(error);
  });

  it("ends with input_required when the handler asked for input", async () => {
    const attempt = MrtrAttempt.open(sealer, ...identity, {}) as MrtrAttempt;
    const ctx = ctxOf(attempt);
    const result = await runAttempt(ctx, () => ctx.listRoots(), fail, fail);
    expect(result.resultType).toBe("input_required");
    expect(Object.keys(result.inputRequests as object)).toEqual(["roots-0"]);
  });

  it("rejects with the abort reason when the request was cancelled", async () => {
    const rctx = fakeRctx();
    rctx.controller.abort(new Error("gone"));
    const error = await errorOf(() => runAttempt(ctxOf(undefined, rctx), () => 1, fail, fail));
    expect(error.message).toBe("gone");
  });
});
