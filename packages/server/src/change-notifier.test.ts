import { describe, expect, it } from "vitest";
import { fakeConn } from "../test/unit-kit.js";
import { ChangeNotifier } from "./change-notifier.js";
import type { Conn } from "./connection.js";
import type { Listener } from "./listen.js";

function listener(filter: Listener["filter"]) {
  const sent: string[] = [];
  const l: Listener = { filter, send: (method) => sent.push(method), end: () => {} };
  return { l, sent };
}

describe("ChangeNotifier", () => {
  it("tells a burst of changes once, on the next microtask, to initialized sessions and listeners that asked", async () => {
    const ready = fakeConn({ initialized: true });
    const starting = fakeConn({ initialized: false });
    const modern = fakeConn();
    const tools = listener({ toolsListChanged: true });
    const prompts = listener({ promptsListChanged: true });
    const notifier = new ChangeNotifier(
      new Set<Conn>([ready, starting, modern]),
      new Set([tools.l, prompts.l]),
    );
    notifier.schedule("tools");
    notifier.schedule("tools");
    notifier.schedule("resources");
    expect(ready.sent).toEqual([]);
    await Promise.resolve();
    expect(ready.sent.map((n) => n.method)).toEqual([
      "notifications/tools/list_changed",
      "notifications/resources/list_changed",
    ]);
    expect(starting.sent).toEqual([]);
    expect(modern.sent).toEqual([]);
    expect(tools.sent).toEqual(["notifications/tools/list_changed"]);
    expect(prompts.sent).toEqual([]);
  });

  it("queues nothing while nobody could be told", async () => {
    const connections = new Set<Conn>();
    const notifier = new ChangeNotifier(connections, new Set());
    notifier.schedule("prompts");
    const late = fakeConn({ initialized: true });
    connections.add(late);
    await Promise.resolve();
    expect(late.sent).toEqual([]);
  });
});
