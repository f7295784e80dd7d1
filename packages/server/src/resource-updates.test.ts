import { describe, expect, it } from "vitest";
import { fakeConn, legacyCall, makeCore } from "../test/unit-kit.js";
import type { Conn } from "./connection.js";
import type { Listener } from "./listen.js";
import { notifyResourceUpdated, subscribeResource } from "./resource-updates.js";

describe("resource updates", () => {
  it("subscribe and unsubscribe edit the session's set", () => {
    const conn = fakeConn({});
    const core = makeCore();
    expect(subscribeResource(core, legacyCall("resources/subscribe"), { uri: "a://1" }, conn)).toEqual({});
    expect([...conn.session!.subscriptions]).toEqual(["a://1"]);
    subscribeResource(core, legacyCall("resources/unsubscribe"), { uri: "a://1" }, conn);
    expect(conn.session!.subscriptions.size).toBe(0);
  });

  it("tells subscribed sessions and listeners of that exact URI only", () => {
    const subscribed = fakeConn({ subscriptions: new Set(["a://1"]) });
    const other = fakeConn({ subscriptions: new Set(["a://2"]) });
    const sent: unknown[] = [];
    const listener: Listener = {
      filter: { resourceSubscriptions: ["a://1"] },
      send: (method, params) => sent.push({ method, params }),
      end: () => {},
    };
    notifyResourceUpdated(new Set<Conn>([subscribed, other]), new Set([listener]), "a://1");
    expect(subscribed.sent).toEqual([
      { method: "notifications/resources/updated", params: { uri: "a://1" } },
    ]);
    expect(other.sent).toEqual([]);
    expect(sent).toEqual([{ method: "notifications/resources/updated", params: { uri: "a://1" } }]);
  });
});
