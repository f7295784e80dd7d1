import { describe, expect, it } from "vitest";
import { linkSignals } from "./linked-signal.js";

describe("linkSignals", () => {
  it("aborts with the reason of whichever source aborts first", () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkSignals(a.signal, b.signal);
    b.abort(new Error("b went"));
    a.abort(new Error("a went"));
    expect(linked.signal.reason).toEqual(new Error("b went"));
  });

  it("hands back the second signal alone when there is no first", () => {
    const b = new AbortController();
    expect(linkSignals(undefined, b.signal).signal).toBe(b.signal);
  });

  it("starts aborted when a source already is", () => {
    const a = new AbortController();
    a.abort("early");
    expect(linkSignals(a.signal, new AbortController().signal).signal.reason).toBe("early");
  });

  it("after unlink, the sources no longer reach it (nothing is kept on a long-lived source)", () => {
    const call = new AbortController();
    const lifetime = new AbortController();
    const linked = linkSignals(call.signal, lifetime.signal);
    linked.unlink();
    lifetime.abort("closed");
    call.abort("gave up");
    expect(linked.signal.aborted).toBe(false);
  });
});
