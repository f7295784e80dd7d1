import { isObject } from "@mcpkit/jsonrpc";
import { hasCapability, McpError } from "@mcpkit/protocol";
import type { CallInfo } from "./internal/context.js";
import type { ServerCore } from "./server-core.js";
import { ownerOf } from "./task-publication.js";
import { type StoredTask, TASKS_CAPABILITY_PATH, TASKS_REQUIRED, wireTask } from "./tasks.js";

type Params = Record<string, unknown>;

/**
 * Throws unless a tasks-extension request may proceed: the client declared the extension (else the
 * missing-capability error), then `params.taskId` is a string (-32602).
 */
export function checkTaskParams(p: Params, call: CallInfo): void {
  if (!hasCapability(call.clientCapabilities, TASKS_CAPABILITY_PATH)) {
    throw McpError.missingClientCapability(TASKS_REQUIRED);
  }
  if (typeof p.taskId !== "string") throw McpError.invalidParams(`${call.method} needs params.taskId`);
}

/** The task of `params.taskId` as its owner sees it; -32602 for an unknown task or another owner's. */
async function ownedTask(core: ServerCore, call: CallInfo, taskId: string): Promise<StoredTask> {
  const task = await core.taskManager.get(taskId, ownerOf(call.rctx.info?.authInfo));
  if (!task) throw McpError.invalidParams(`Unknown task: ${taskId}`);
  return task;
}

/** `tasks/get` (tasks extension): the task's current wire form. */
export async function getTask(core: ServerCore, call: CallInfo, p: Params): Promise<Params> {
  const task = await ownedTask(core, call, p.taskId as string);
  return { ...wireTask(task), resultType: "complete" };
}

/** `tasks/update` (tasks extension): hands `inputResponses` to a task waiting for input. */
export async function updateTask(core: ServerCore, call: CallInfo, p: Params): Promise<Params> {
  const taskId = p.taskId as string;
  await ownedTask(core, call, taskId);
  const responses = p.inputResponses;
  if (!isObject(responses)) throw McpError.invalidParams("tasks/update needs params.inputResponses");
  await core.taskManager.update(taskId, responses);
  return { resultType: "complete" };
}

/** `tasks/cancel` (tasks extension): cancels the task; its handler sees `ctx.signal` abort. */
export async function cancelTask(core: ServerCore, call: CallInfo, p: Params): Promise<Params> {
  const taskId = p.taskId as string;
  await ownedTask(core, call, taskId);
  await core.taskManager.cancel(taskId);
  return { resultType: "complete" };
}
