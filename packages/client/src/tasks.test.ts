import { McpError } from "@mcpkit/protocol";
import { describe, expect, it } from "vitest";
import { sessionKit, unitChain, useSessionKits } from "../test/unit-kit.js";
import { TaskCancelledError } from "./errors.js";
import { TaskPoller } from "./tasks.js";

const kits = useSessionKits();

/** A poller whose polls go down a plain request chain. */
function poller(onError: (e: unknown) => void = () => {}) {
  const chain = unitChain();
  const tasks = new TaskPoller({ roots: () => [] }, new AbortController().signal, onError);
  return {
    poll: (...args: Parameters<TaskPoller["poll"]> extends [unknown, ...infer R] ? R : never) =>
      tasks.poll(chain.send, ...args),
  };
}

describe("TaskPoller", () => {
  it("answers a task's input requests once through tasks/update, then returns its result", async () => {
    let updated = false;
    const kit = await sessionKit({
      "tasks/get": () =>
        updated
          ? { taskId: "t", status: "completed", result: { content: [] } }
          : {
              taskId: "t",
              status: "input_required",
              inputRequests: { k: { method: "roots/list", params: {} } },
            },
      "tasks/update": () => {
        updated = true;
        return {};
      },
    });
    kits.push(kit);
    const statuses: string[] = [];
    const result = await poller().poll(kit.session, "t", { onStatus: (t) => statuses.push(t.status) });
    expect(result).toEqual({ content: [] });
    expect(statuses).toEqual(["input_required", "completed"]);
    expect(kit.server.requests("tasks/update")[0]!.params).toMatchObject({
      taskId: "t",
      inputResponses: { k: { roots: [] } },
    });
  });

  it("throws the task's error when it failed and TaskCancelledError when it was cancelled", async () => {
    const failed = await sessionKit({
      "tasks/get": () => ({ taskId: "t", status: "failed", error: { code: -32603, message: "no" } }),
    });
    const cancelled = await sessionKit({ "tasks/get": () => ({ taskId: "t", status: "cancelled" }) });
    kits.push(failed, cancelled);
    await expect(poller().poll(failed.session, "t", undefined)).rejects.toThrow(McpError);
    await expect(poller().poll(cancelled.session, "t", undefined)).rejects.toThrow(TaskCancelledError);
  });

  it("reports a throwing onStatus and goes on", async () => {
    const kit = await sessionKit({ "tasks/get": () => ({ taskId: "t", status: "completed", result: {} }) });
    kits.push(kit);
    const errors: unknown[] = [];
    await poller((e) => errors.push(e)).poll(kit.session, "t", {
      onStatus: () => {
        throw new Error("bad callback");
      },
    });
    expect(errors).toHaveLength(1);
  });
});
