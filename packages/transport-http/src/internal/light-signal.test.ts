import { describe, expect, it } from "vitest";
import { LightSignal } from "./light-signal.js";

describe("LightSignal.follow", () => {
  it("aborts with the followed signal's reason, once, and not after unfollow", () => {
    const outer = new AbortController();
    const light = new LightSignal();
    let calls = 0;
    light.addEventListener("abort", () => calls++);
    light.follow(outer.signal);
    const reason = new Error("stop");
    outer.abort(reason);
    expect(light.aborted).toBe(true);
    expect(light.reason).toBe(reason);
    expect(calls).toBe(1);

    const other = new AbortController();
    const second = new LightSignal();
    second.follow(other.signal);
    second.unfollow();
    other.abort(new Error("late"));
    expect(second.aborted).toBe(false);
  });

  it("takes an already aborted signal at once, and can follow another light signal", () => {
    const done = new AbortController();
    done.abort("why");
    const light = new LightSignal();
    light.follow(done.signal);
    expect(light.reason).toBe("why");

    const source = new LightSignal();
    const follower = new LightSignal();
    follower.follow(source as unknown as AbortSignal);
    source.abort("chain");
    expect(follower.reason).toBe("chain");
  });
});
