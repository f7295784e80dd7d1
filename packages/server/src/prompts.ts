import { isObject } from "@mcpkit/jsonrpc";
import { McpError } from "@mcpkit/protocol";
import { type CallInfo, Context } from "./internal/context.js";
import { toPromptResult } from "./internal/results.js";
import { MrtrAttempt, runAttempt } from "./mrtr-attempt.js";
import type { ServerCore } from "./server-core.js";
import { ownerOf } from "./task-publication.js";

type Params = Record<string, unknown>;

/**
 * `prompts/get` in either era (the method table checked `params.name`): checks the arguments (its
 * `argsSchema`, or the required `arguments`), runs the handler, and returns its `GetPromptResult`. In a
 * modern request the handler may ask for input (an `input_required` result).
 * @throws McpError -32602 for an unknown prompt or bad arguments; -32603 when the handler throws (its
 * detail goes to the logger).
 */
export async function getPrompt(core: ServerCore, call: CallInfo, p: Params): Promise<Params> {
  const name = p.name as string;
  const prompt = core.registry.prompts.get(name);
  if (!prompt) throw McpError.invalidParams(`Unknown prompt: ${name}`);
  const args = p.arguments === undefined ? {} : p.arguments;
  if (!isObject(args))
    throw McpError.invalidParams(`Invalid arguments for prompt ${name}: arguments must be an object`);
  let input: unknown = args;
  if (prompt.argsCheck) {
    const checked = await prompt.argsCheck.check(args);
    if (!checked.ok) throw McpError.invalidParams(`Invalid arguments for prompt ${name}: ${checked.message}`);
    input = checked.value;
  } else {
    const missing = prompt.required.filter((arg) => args[arg] === undefined);
    if (missing.length > 0)
      throw McpError.invalidParams(`Prompt ${name} is missing arguments: ${missing.join(", ")}`);
  }
  const attempt =
    call.era === "modern"
      ? await MrtrAttempt.open(core.sealer, "prompts/get", name, args, p, ownerOf(call.rctx.info?.authInfo))
      : undefined;
  const ctx = new Context(call, attempt);
  return runAttempt(
    ctx,
    () => prompt.handler(input, ctx),
    (value) => toPromptResult(value as never, prompt.description),
    (error) => {
      throw core.internalError(`Prompt ${name} failed`, error);
    },
  );
}
