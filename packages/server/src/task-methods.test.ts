import { describe, expect, it } from "vitest";
import { errorOf, fakeRctx, makeCore, modernCall } from "../test/unit-kit.js";
import { cancelTask, checkTaskParams, getTask, updateTask } from "./task-methods.js";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

describe("task methods", () => {
  it("need the client's tasks capability, then a taskId", () => {
    expect(() => checkTaskParams({ taskId: "x" }, modernCall("tasks/get"))).toThrow(
      "Missing required client capability",
    );
    expect(() => checkTaskParams({}, modernCall("tasks/get", TASKS))).toThrow(
      "tasks/get needs params.taskId",
    );
  });

  it("get, update and cancel a task of its owner; another owner sees none", async () => {
    const core = makeCore({ tasks: {} });
    const { task } = await core.taskManager.create("sub:alice");
    const alice = (method: string) =>
      modernCall(method, TASKS, fakeRctx(method, 1, { authInfo: { sub: "alice" } } as never));
    const got = await getTask(core, alice("tasks/get"), { taskId: task.taskId });
    expect(got).toMatchObject({ taskId: task.taskId, status: "working", resultType: "complete" });
    const other = await errorOf(() => getTask(core, modernCall("tasks/get", TASKS), { taskId: task.taskId }));
    expect(other.toJSON()).toEqual({ code: -32602, message: `Unknown task: ${task.taskId}` });
    const noResponses = await errorOf(() => updateTask(core, alice("tasks/update"), { taskId: task.taskId }));
    expect(noResponses.message).toBe("tasks/update needs params.inputResponses");
    expect(await cancelTask(core, alice("tasks/cancel"), { taskId: task.taskId })).toEqual({
      resultType: "complete",
    });
    expect((await getTask(core, alice("tasks/get"), { taskId: task.taskId })).status).toBe("cancelled");
  });
});
