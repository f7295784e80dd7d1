import { afterEach, describe, expect, it, vi } from "vitest";
import { TimeoutError } from "./errors.js";
import { type PendingInit, PendingRequests } from "./pending-requests.js";

afterEach(() => {
  vi.useRealTimers();
});

function init(over: Partial<PendingInit> = {}) {
  const outcome: { value?: unknown; error?: unknown } = {};
  const entry: PendingInit = {
    resolve: (value) => {
      outcome.value = value;
    },
    reject: (error) => {
      outcome.error = error;
    },
    onProgress: undefined,
    timeout: 100,
    maxTotal: 1000,
    resetOnProgress: true,
    controller: undefined,
    watch: undefined,
    ...over,
  };
  return { entry, outcome };
}

describe("PendingRequests", () => {
  it("settles a request once with its answer; an unknown id is said to be unknown", () => {
    const abandoned: unknown[] = [];
    const pending = new PendingRequests((id) => abandoned.push(id));
    const { entry, outcome } = init();
    pending.track(1, entry, undefined);
    expect(pending.size).toBe(1);
    expect(pending.answer(1, "ok")).toBe(true);
    expect(pending.answer(1, "again")).toBe(false);
    expect(outcome.value).toBe("ok");
    expect(pending.size).toBe(0);
    expect(abandoned).toEqual([]);
  });

  it("times out with a TimeoutError, hands the request to onAbandon, and progress restarts the timer", () => {
    vi.useFakeTimers();
    const abandoned: Array<[unknown, unknown]> = [];
    const pending = new PendingRequests((id, reason) => abandoned.push([id, reason]));
    const seen: unknown[] = [];
    const { entry, outcome } = init({ onProgress: (p) => seen.push(p.progress) });
    pending.track(7, entry, undefined);
    vi.advanceTimersByTime(90);
    pending.progress(7, { progressToken: 7, progress: 1 }, () => {});
    vi.advanceTimersByTime(90);
    expect(outcome.error).toBeUndefined();
    vi.advanceTimersByTime(20);
    expect(outcome.error).toBeInstanceOf(TimeoutError);
    expect(seen).toEqual([1]);
    expect(abandoned).toEqual([[7, outcome.error]]);
  });

  it("rejects with the caller's abort reason, and fails everything left on failAll", () => {
    const abandoned: unknown[] = [];
    const pending = new PendingRequests((id) => abandoned.push(id));
    const controller = new AbortController();
    const a = init();
    const b = init();
    pending.track(1, a.entry, controller.signal);
    pending.track(2, b.entry, undefined);
    const reason = new Error("stop");
    controller.abort(reason);
    expect(a.outcome.error).toBe(reason);
    expect(abandoned).toEqual([1]);
    const closed = new Error("closed");
    pending.failAll(closed);
    expect(b.outcome.error).toBe(closed);
    expect(pending.size).toBe(0);
  });
});
