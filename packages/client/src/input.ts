import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  InputResponse,
  ListRootsResult,
  ProtocolEra,
  Root,
} from "@mcpkit/protocol";
import { InputRequestError } from "./errors.js";

/** What an input handler knows about the request it answers. */
export interface InputContext {
  /** Aborted when the call that needs the input is cancelled, times out, or the connection ends. */
  readonly signal: AbortSignal;
  /** The era of the session: `legacy` for a server-to-client request, `modern` for an `input_required` round. */
  readonly era: ProtocolEra;
  /** The server asking, as it identified itself. */
  readonly serverInfo: Implementation | undefined;
  /** The key of the input request in its `inputRequests` map (modern era and tasks only). */
  readonly key?: string;
}

/**
 * Answers `elicitation/create`: ask the user and report what they did. With
 * `capabilities.elicitation.form.applyDefaults` declared, the client fills fields the answer left out
 * with the schema's defaults.
 */
export type ElicitationHandler = (
  params: ElicitRequestParams,
  context: InputContext,
) => ElicitResult | Promise<ElicitResult>;

/** Answers `sampling/createMessage` (deprecated in 2026-07-28, still functional): run the model. */
export type SamplingHandler = (
  params: CreateMessageRequestParams,
  context: InputContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

/** Answers `roots/list` (deprecated in 2026-07-28, still functional): the client's roots. */
export type RootsHandler = (
  context: InputContext,
) => Root[] | ListRootsResult | Promise<Root[] | ListRootsResult>;

/**
 * The client's answers to what a server may ask. The SAME handlers serve both eras: legacy
 * server-to-client requests and modern `input_required` rounds (and task input requests). Declaring a
 * handler declares the matching client capability.
 */
export interface InputHandlers {
  elicitation?: ElicitationHandler;
  sampling?: SamplingHandler;
  roots?: RootsHandler;
}

const CAPABILITY_OF: Record<string, keyof InputHandlers> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

/**
 * Runs the handler for one input request (`{ method, params }`) and returns the response to send back.
 * @throws InputRequestError naming the capability when there is no handler for it, or when the method is unknown.
 */
export async function answerInputRequest(
  handlers: InputHandlers,
  capabilities: ClientCapabilities,
  request: { method?: unknown; params?: unknown },
  context: InputContext,
): Promise<InputResponse> {
  const method = typeof request.method === "string" ? request.method : "";
  const capability = CAPABILITY_OF[method];
  if (!capability) {
    throw new InputRequestError(`The server asked for unknown input "${method}"`);
  }
  const params = (request.params ?? {}) as Record<string, unknown>;
  switch (capability) {
    case "elicitation": {
      const handler = handlers.elicitation;
      if (!handler) throw missing("elicitation", method);
      const result = await handler(params as unknown as ElicitRequestParams, context);
      return applyElicitationDefaults(capabilities, params as unknown as ElicitRequestParams, result);
    }
    case "sampling": {
      const handler = handlers.sampling;
      if (!handler) throw missing("sampling", method);
      return handler(params as unknown as CreateMessageRequestParams, context);
    }
    case "roots": {
      const handler = handlers.roots;
      if (!handler) throw missing("roots", method);
      const roots = await handler(context);
      return Array.isArray(roots) ? { roots } : roots;
    }
  }
}

function missing(capability: keyof InputHandlers, method: string): InputRequestError {
  return new InputRequestError(
    `The server asked for ${capability} (${method}) but the client has no ${capability} handler: pass handlers.${capability} to createClient()`,
    capability,
  );
}

/**
 * Fills form fields the user's `accept` left out with the requested schema's defaults, when the client
 * declared `elicitation.form.applyDefaults` (SEP-1034). Other answers pass unchanged.
 */
export function applyElicitationDefaults(
  capabilities: ClientCapabilities,
  params: ElicitRequestParams,
  result: ElicitResult,
): ElicitResult {
  const form = capabilities.elicitation?.form as { applyDefaults?: unknown } | undefined;
  if (form?.applyDefaults !== true || result?.action !== "accept" || params.mode === "url") return result;
  const properties = params.requestedSchema?.properties ?? {};
  let content = result.content;
  for (const [name, schema] of Object.entries(properties)) {
    const fallback = (schema as { default?: unknown }).default;
    if (fallback === undefined || (content && Object.hasOwn(content, name))) continue;
    content = { ...content, [name]: fallback as never };
  }
  return content === result.content ? result : { ...result, content: content ?? {} };
}
