import { isObject } from "@mcpkit/jsonrpc";
import { type ClientCapabilities, hasCapability, McpError } from "@mcpkit/protocol";
import { type CallInfo, Context } from "./internal/context.js";
import { headersOf, paramHeaderProblem } from "./internal/param-headers.js";
import type { ToolEntry } from "./internal/registry.js";
import { toolErrorResult } from "./internal/results.js";
import { MrtrAttempt, runAttempt } from "./mrtr-attempt.js";
import type { ServerCore } from "./server-core.js";
import { ownerOf, runTask } from "./task-publication.js";
import { TASKS_CAPABILITY_PATH, TASKS_REQUIRED, wireTask } from "./tasks.js";
import { finishToolResult } from "./tool-output.js";
import type { ToolReturn } from "./types.js";

type Params = Record<string, unknown>;

/** Whether `have` declares every capability path that `need` names (nested objects are paths). */
export function satisfies(have: ClientCapabilities, need: ClientCapabilities, path: string[] = []): boolean {
  for (const [key, value] of Object.entries(need)) {
    const here = [...path, key];
    if (!hasCapability(have, here)) return false;
    if (
      isObject(value) &&
      Object.keys(value).length > 0 &&
      !satisfies(have, value as ClientCapabilities, here)
    ) {
      return false;
    }
  }
  return true;
}

/**
 * `tools/call` in either era (the method table checked `params.name`). Protocol problems are errors
 * (unknown tool, `Mcp-Param-*` header mismatch, a missing client capability in the modern era); bad
 * arguments and the handler's throw are `isError` results. In a modern request the handler may ask for
 * input (an `input_required` result) and, when the client declares the tasks extension and the tool
 * allows it, the call may become a task (a `task` result; the handler goes on in the background).
 */
export async function callTool(core: ServerCore, call: CallInfo, p: Params): Promise<Params> {
  const name = p.name as string;
  const tool = core.registry.tools.get(name);
  if (!tool) throw McpError.invalidParams(`Unknown tool: ${name}`);
  const args = p.arguments === undefined ? {} : p.arguments;
  const modern = call.era === "modern";
  if (modern && tool.paramHeaders.length > 0) {
    const headers = headersOf(call.rctx.info);
    const problem = headers && paramHeaderProblem(tool.paramHeaders, args, headers);
    if (problem) throw McpError.headerMismatch(problem);
  }
  const required = tool.config.requiredClientCapabilities;
  if (required && !satisfies(call.clientCapabilities, required)) {
    if (modern) throw McpError.missingClientCapability(required);
    return toolErrorResult(new Error(`Tool ${name} needs client capabilities ${JSON.stringify(required)}`));
  }
  let asTask = false;
  if (modern && tool.taskSupport !== "forbidden") {
    asTask = hasCapability(call.clientCapabilities, TASKS_CAPABILITY_PATH);
    if (!asTask && tool.taskSupport === "required") throw McpError.missingClientCapability(TASKS_REQUIRED);
  }
  let attempt: MrtrAttempt | undefined;
  if (modern) {
    const opened = MrtrAttempt.open(
      core.sealer,
      "tools/call",
      name,
      args,
      p,
      ownerOf(call.rctx.info?.authInfo),
    );
    attempt = opened instanceof Promise ? await opened : opened;
  }
  if (!isObject(args))
    return toolErrorResult(new Error(`Invalid arguments for tool ${name}: arguments must be an object`));
  let input: unknown = args;
  if (tool.input) {
    const pending = tool.input.check(args);
    const checked = pending instanceof Promise ? await pending : pending;
    if (!checked.ok)
      return toolErrorResult(new Error(`Invalid arguments for tool ${name}: ${checked.message}`));
    input = checked.value;
  }
  const ctx = new Context(call, attempt);
  const run = () => tool.handler(input, ctx);
  if (!asTask) {
    // The common path: no task can start, so the handler runs at once and nothing races.
    return runAttempt(
      ctx,
      run,
      (value) => finishToolResult(core, tool, call.era, value as ToolReturn),
      (error) => toolErrorResult(error, (message, detail) => core.logger.error(message, detail)),
    );
  }
  return callAsTask(core, tool, ctx, run);
}

/**
 * A modern call of a tool that may run as a task. `taskMode: "auto"` makes the task at once; otherwise
 * the handler runs and whichever comes first answers the call: its result, or `ctx.startTask()`.
 */
async function callAsTask(
  core: ServerCore,
  tool: ToolEntry,
  ctx: Context,
  run: () => unknown,
): Promise<Params> {
  const owner = ownerOf(ctx.authInfo);
  if ((tool.config.taskMode ?? "auto") === "auto") {
    const { task, signal } = await core.taskManager.create(owner);
    ctx.becomeTask(task.taskId, signal, core.taskManager);
    runTask(core, tool, task.taskId, Promise.resolve().then(run));
    return { ...wireTask(task), resultType: "task" };
  }
  let announceTask: ((result: Params) => void) | undefined;
  const taskStarted = new Promise<Params>((resolve) => (announceTask = resolve));
  ctx.onStartTask = async () => {
    const { task, signal } = await core.taskManager.create(owner);
    ctx.becomeTask(task.taskId, signal, core.taskManager);
    announceTask?.({ ...wireTask(task), resultType: "task" });
    return true;
  };
  const running = Promise.resolve().then(run);
  const outcome = runAttempt(
    ctx,
    () => running,
    (value) => finishToolResult(core, tool, "modern", value as ToolReturn),
    (error) => toolErrorResult(error, (message, detail) => core.logger.error(message, detail)),
  );
  const first = await Promise.race([
    outcome.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    ),
    taskStarted.then((created) => ({ created })),
  ]);
  if ("created" in first || ctx.task) {
    const created = "created" in first ? first.created : await taskStarted;
    runTask(core, tool, ctx.task!.id, running);
    return created;
  }
  if ("error" in first) throw first.error;
  return first.result;
}
