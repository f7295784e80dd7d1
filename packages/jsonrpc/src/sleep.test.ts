import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sleep } from "./sleep.js";

describe("sleep", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves once the time has passed, not before", async () => {
    let done = false;
    const slept = sleep(1000, new AbortController().signal).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await slept;
    expect(done).toBe(true);
  });

  it("rejects with the signal's reason when aborted first, and clears its timer", async () => {
    const controller = new AbortController();
    const slept = sleep(1000, controller.signal);
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(slept).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects at once with the reason of a signal that already aborted", async () => {
    await expect(sleep(1000, AbortSignal.abort("gone"))).rejects.toBe("gone");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("leaves no abort listener on the signal once it resolved", async () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, "addEventListener");
    const remove = vi.spyOn(controller.signal, "removeEventListener");
    const slept = sleep(10, controller.signal);
    await vi.advanceTimersByTimeAsync(10);
    await slept;
    expect(remove).toHaveBeenCalledWith("abort", add.mock.calls[0]![1]);
    // A later abort has nobody to reject.
    controller.abort(new Error("late"));
  });
});
