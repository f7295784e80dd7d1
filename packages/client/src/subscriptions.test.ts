import type { SubscriptionFilter } from "@mcpkit/protocol";
import { describe, expect, it } from "vitest";
import { fixedSession, type SessionKit, sessionKit, unitChain, useSessionKits } from "../test/unit-kit.js";
import { ClientLife } from "./client-life.js";
import type { Subscription } from "./subscription.js";
import { createSubscription } from "./subscription.js";
import { Subscriptions, type SubscriptionsHooks } from "./subscriptions.js";

const kits = useSessionKits();

/** The streams of one kit's session (the client passes its connection; here the session is fixed). */
class KitSubscriptions extends Subscriptions {
  readonly #kit: SessionKit;
  constructor(kit: SessionKit, hooks: SubscriptionsHooks) {
    super(unitChain(), hooks);
    this.#kit = kit;
  }
  override subscribe(filter: SubscriptionFilter): Subscription {
    return super.subscribe(filter, fixedSession(this.#kit.session));
  }
}

function subscriptionsFor(kit: SessionKit, hooks: Partial<SubscriptionsHooks> = {}) {
  const life = new ClientLife();
  life.state = "open";
  return new KitSubscriptions(kit, {
    options: { name: "t", version: "1" },
    onError: () => {},
    life,
    beforeRouting: () => {},
    ...hooks,
  });
}

describe("Subscriptions.handleNotification", () => {
  it("routes a tagged notification to its listen stream only, an untagged one to every matching stream", async () => {
    const kit = await sessionKit({});
    kits.push(kit);
    const subs = subscriptionsFor(kit);
    const listen = createSubscription({}, async () => {});
    const tools = createSubscription({ toolsListChanged: true }, async () => {});
    kit.session.listens.set("7", listen);
    kit.session.subs.add(tools);
    const pushed: string[] = [];
    listen.push = () => pushed.push("listen");
    tools.push = () => pushed.push("tools");
    subs.handleNotification(kit.session, "notifications/tools/list_changed", {
      _meta: { "io.modelcontextprotocol/subscriptionId": 7 },
    });
    subs.handleNotification(kit.session, "notifications/tools/list_changed", {});
    expect(pushed).toEqual(["listen", "tools"]);
  });

  it("tells the caches first, then onLog, then onNotification; a throwing callback goes to onError", async () => {
    const kit = await sessionKit({});
    kits.push(kit);
    const order: string[] = [];
    const errors: unknown[] = [];
    const subs = subscriptionsFor(kit, {
      beforeRouting: (m) => order.push(`caches ${m}`),
      onError: (e) => errors.push(e),
      options: {
        name: "t",
        version: "1",
        onLog: () => {
          order.push("onLog");
          throw new Error("bad log callback");
        },
        onNotification: (n) => order.push(`onNotification ${n.method}`),
      },
    });
    subs.handleNotification(kit.session, "notifications/message", { level: "info", data: "x" });
    expect(order).toEqual(["caches notifications/message", "onLog", "onNotification notifications/message"]);
    expect(errors).toHaveLength(1);
  });
});

describe("Subscriptions.subscribe (legacy)", () => {
  it("subscribes to each resource once however many streams want it, and unsubscribes after the last", async () => {
    const kit = await sessionKit(
      { "resources/subscribe": () => ({}), "resources/unsubscribe": () => ({}) },
      { era: "legacy" },
    );
    kits.push(kit);
    const subs = subscriptionsFor(kit);
    const a = subs.subscribe({ resourceSubscriptions: ["file:///x"] });
    const b = subs.subscribe({ resourceSubscriptions: ["file:///x"] });
    await kit.server.waitFor((m) => m.method === "resources/subscribe");
    await expect.poll(() => kit.session.resourceRefs.get("file:///x")).toBe(2);
    expect(kit.server.requests("resources/subscribe")).toHaveLength(1);
    await a.close();
    expect(kit.server.requests("resources/unsubscribe")).toHaveLength(0);
    await b.close();
    expect(kit.server.requests("resources/unsubscribe")).toHaveLength(1);
  });
});
