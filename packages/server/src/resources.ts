import { McpError } from "@mcpkit/protocol";
import { type CallInfo, Context } from "./internal/context.js";
import { toResourceContents } from "./internal/results.js";
import { MrtrAttempt, runAttempt } from "./mrtr-attempt.js";
import type { ServerCore } from "./server-core.js";
import { ownerOf } from "./task-publication.js";

type Params = Record<string, unknown>;

/**
 * `resources/read` in either era (the method table checked `params.uri`): the static resource of that URI
 * or the first template matching it. A modern complete result carries the cache hints; in a modern
 * request the handler may ask for input (an `input_required` result).
 * @throws McpError resource-not-found (the era's code) when nothing serves the URI or the handler said so;
 * -32603 when the handler throws (its detail goes to the logger).
 */
export async function readResource(core: ServerCore, call: CallInfo, p: Params): Promise<Params> {
  const uri = p.uri as string;
  const found = core.registry.findResource(uri);
  if (!found) throw McpError.resourceNotFound(uri, call.era);
  const attempt =
    call.era === "modern"
      ? await MrtrAttempt.open(core.sealer, "resources/read", uri, {}, p, ownerOf(call.rctx.info?.authInfo))
      : undefined;
  const ctx = new Context(call, attempt);
  const mimeType = found.entry.mimeType;
  const result = await runAttempt(
    ctx,
    () =>
      found.kind === "static"
        ? found.entry.handler(uri, ctx)
        : found.entry.handler(uri, found.variables, ctx),
    (value) => {
      const contents = toResourceContents(value as never, uri, mimeType);
      if (contents === undefined) throw McpError.resourceNotFound(uri, call.era);
      return { contents };
    },
    (error) => {
      throw core.internalError(`Reading resource ${uri} failed`, error);
    },
  );
  if (call.era === "modern" && result.resultType === undefined) core.cacheHints(result);
  return result;
}
