import { describe, expect, it } from "vitest";
import { errorOf, fakeRctx, makeCore, modernCall } from "../test/unit-kit.js";
import { endListeners, listen } from "./listen.js";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

describe("subscriptions/listen", () => {
  it("grants what the server has, acknowledges it, tags every notification, and ends gracefully", async () => {
    const core = makeCore();
    core.registry.addTool("t", {}, () => "ok");
    const rctx = fakeRctx("subscriptions/listen", 7);
    const filter = { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["a://1"] };
    const ended = listen(core, modernCall("subscriptions/listen", {}, rctx), { notifications: filter });
    await Promise.resolve();
    const tag = { "io.modelcontextprotocol/subscriptionId": 7 };
    expect(rctx.notified).toEqual([
      {
        method: "notifications/subscriptions/acknowledged",
        params: { _meta: tag, notifications: { toolsListChanged: true } },
      },
    ]);
    const [listener] = core.listeners;
    listener!.send("notifications/tools/list_changed", { _meta: { a: 1 } });
    expect(rctx.notified[1]).toEqual({
      method: "notifications/tools/list_changed",
      params: { _meta: { a: 1, ...tag } },
    });
    endListeners(core.listeners);
    expect(await ended).toEqual({ resultType: "complete", _meta: tag });
    expect(core.listeners.size).toBe(0);
  });

  it("rejects with the abort reason when the client cancels", async () => {
    const core = makeCore();
    const rctx = fakeRctx("subscriptions/listen");
    const ended = listen(core, modernCall("subscriptions/listen", {}, rctx), { notifications: {} });
    await Promise.resolve();
    rctx.controller.abort(new Error("bye"));
    expect((await errorOf(() => ended)).message).toBe("bye");
    expect(core.listeners.size).toBe(0);
  });

  it("asks the tasks capability for taskIds and ends at once on a closed server", async () => {
    const core = makeCore({ tasks: {} });
    const missing = await errorOf(() =>
      listen(core, modernCall("subscriptions/listen"), { notifications: { taskIds: ["x"] } }),
    );
    expect(missing.code).toBe(-32021);
    core.isClosed = true;
    const result = await listen(core, modernCall("subscriptions/listen", TASKS), {
      notifications: { taskIds: ["x"] },
    });
    expect(result.resultType).toBe("complete");
    expect(core.listeners.size).toBe(0);
  });
});
