import { isObject } from "@mcpkit/jsonrpc";
import { McpError } from "@mcpkit/protocol";
import type { CallInfo } from "./internal/context.js";
import type { ServerCore } from "./server-core.js";

type Params = Record<string, unknown>;

type CompleterFn = (value: string, c: { arguments: Record<string, string> }) => string[] | Promise<string[]>;

/** Throws -32602 unless the params of `completion/complete` have `ref` and `argument { name, value }`. */
export function checkCompleteParams(p: Params): void {
  const argument = p.argument;
  if (
    !isObject(p.ref) ||
    !isObject(argument) ||
    typeof argument.name !== "string" ||
    typeof argument.value !== "string"
  ) {
    throw McpError.invalidParams("completion/complete needs ref and argument { name, value }");
  }
}

/**
 * `completion/complete` in either era (params checked by {@link checkCompleteParams}): asks the completer
 * a prompt or resource template registered for the argument, and returns at most 100 values with the
 * total. A reference without a completer for that argument gets no values.
 * @throws McpError -32602 for an unknown prompt, template or reference type; -32603 when the completer
 * throws (its detail goes to the logger).
 */
export async function complete(core: ServerCore, _call: CallInfo, p: Params): Promise<Params> {
  const ref = p.ref as Record<string, unknown>;
  const argument = p.argument as { name: string; value: string };
  const context = isObject(p.context) && isObject(p.context.arguments) ? p.context.arguments : {};
  const registry = core.registry;
  let completer: CompleterFn | undefined;
  if (ref.type === "ref/prompt") {
    const prompt = typeof ref.name === "string" ? registry.prompts.get(ref.name) : undefined;
    if (!prompt) throw McpError.invalidParams(`Unknown prompt: ${String(ref.name)}`);
    completer = prompt.complete?.[argument.name];
  } else if (ref.type === "ref/resource") {
    const template = typeof ref.uri === "string" ? registry.templates.get(ref.uri) : undefined;
    if (!template && !(typeof ref.uri === "string" && registry.resources.has(ref.uri))) {
      throw McpError.invalidParams(`Unknown resource template: ${String(ref.uri)}`);
    }
    completer = template?.complete?.[argument.name];
  } else {
    throw McpError.invalidParams(`Unknown completion reference type: ${String(ref.type)}`);
  }
  let values: string[] = [];
  if (completer) {
    try {
      values = await completer(argument.value, { arguments: context as Record<string, string> });
    } catch (error) {
      throw core.internalError("A completer failed", error);
    }
  }
  return {
    completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 },
  };
}
