import { McpError } from "@mcpkit/protocol";
import { describe, expect, it, vi } from "vitest";
import { makeCore } from "../test/unit-kit.js";
import type { Listener } from "./listen.js";
import { deliverTaskStatus, ownerOf, publishTask, runTask } from "./task-publication.js";
import { type StoredTask, TaskCancelledError } from "./tasks.js";

describe("task publication", () => {
  it("publishTask sends notifications/tasks to listeners of that task", () => {
    const sent: Array<{ method: string; params: any }> = [];
    const mine: Listener = {
      filter: { taskIds: ["t1"] },
      owner: "sub:a",
      send: (method, params) => sent.push({ method, params }),
      end() {},
    };
    const theirs: Listener = {
      filter: { taskIds: ["t2"] },
      send: () => sent.push({ method: "x", params: {} }),
      end() {},
    };
    const task = {
      taskId: "t1",
      status: "working",
      createdAt: "2026-01-01T00:00:00Z",
      ttlMs: null,
      owner: "sub:a",
    };
    publishTask(new Set([mine, theirs]), task as unknown as StoredTask);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: "notifications/tasks",
      params: { taskId: "t1", status: "working" },
    });
    expect(sent[0]!.params.owner).toBeUndefined();
  });

  it("tells only the streams of the task's owner, here and (published as is) from other instances", () => {
    const sent: string[] = [];
    const listener = (name: string, owner?: string): Listener => ({
      filter: { taskIds: ["t1"] },
      ...(owner === undefined ? {} : { owner }),
      send: (_method, params) => sent.push(`${name}:${String(params.status)}`),
      end() {},
    });
    const listeners = new Set([listener("alice", "sub:alice"), listener("bob", "sub:bob"), listener("anon")]);
    const task = { taskId: "t1", status: "working", createdAt: "", ttlMs: null, owner: "sub:alice" };
    publishTask(listeners, task as unknown as StoredTask);
    deliverTaskStatus(listeners, { taskId: "t1", status: "completed" }, "sub:alice");
    deliverTaskStatus(listeners, { taskId: "t1", status: "failed" }, undefined);
    expect(sent).toEqual(["alice:working", "alice:completed", "anon:failed"]);
  });

  it("ownerOf takes the first subject-like string of the auth info", () => {
    expect(ownerOf({ sub: "u1", clientId: "c" })).toBe("sub:u1");
    expect(ownerOf({ clientId: "c" })).toBe("clientId:c");
    expect(ownerOf(undefined)).toBeUndefined();
  });

  it("runTask records a result, a protocol error, or nothing after a cancel", async () => {
    const core = makeCore({ tasks: {} });
    const tool = { name: "t", output: undefined } as never;
    const finish = vi.spyOn(core.taskManager, "finish");
    // The cancelled one goes first: its chain has settled by the time the later ones have.
    const c = await core.taskManager.create(undefined);
    runTask(core, tool, c.task.taskId, Promise.reject(new TaskCancelledError(c.task.taskId)));
    const a = await core.taskManager.create(undefined);
    runTask(core, tool, a.task.taskId, Promise.resolve("done"));
    const b = await core.taskManager.create(undefined);
    runTask(core, tool, b.task.taskId, Promise.reject(McpError.invalidParams("bad")));
    await vi.waitFor(() => expect(finish).toHaveBeenCalledTimes(2));
    expect(finish.mock.calls[0]).toEqual([
      a.task.taskId,
      { result: { content: [{ type: "text", text: "done" }], resultType: "complete" } },
    ]);
    expect(finish.mock.calls[1]).toEqual([b.task.taskId, { error: { code: -32602, message: "bad" } }]);
  });
});
