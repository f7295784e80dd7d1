import type { ResultMeta } from "./base.js";
import type { ElicitRequest, ElicitResult } from "./elicitation.js";
import type { ListRootsRequest, ListRootsResult } from "./roots.js";
import type { CreateMessageRequest, CreateMessageResult } from "./sampling.js";

/**
 * A request the server embeds in an `input_required` result (2026-07-28, MRTR). Not a JSON-RPC request:
 * it has no `jsonrpc` and no `id`; its key in {@link InputRequests} identifies it.
 * Sampling and roots are deprecated in 2026-07-28 but still functional.
 * @see SPEC.md §3.7 MRTR
 */
export type InputRequest = ElicitRequest | CreateMessageRequest | ListRootsRequest;

/** Input requests keyed by server-chosen keys, unique within the request. */
export type InputRequests = Record<string, InputRequest>;

/** The client's answer to one {@link InputRequest}: the result type of the embedded method. */
export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

/** Answers keyed by the keys of the {@link InputRequests} they answer. */
export type InputResponses = Record<string, InputResponse>;

/**
 * A result that ends an attempt and asks the client for input (2026-07-28). Only `tools/call`,
 * `prompts/get` and `resources/read` may return it. At least one of `inputRequests` and `requestState`
 * is present. It carries no cache hints and must not be cached.
 *
 * The client fulfils every input request, then retries the same method with a new JSON-RPC id, the
 * answers in `inputResponses` and `requestState` echoed exactly (omitted if none was given).
 * @see SPEC.md §3.7 MRTR
 */
export interface InputRequiredResult {
  resultType: "input_required";
  _meta?: ResultMeta;
  inputRequests?: InputRequests;
  /** Opaque to the client; treated by the server as attacker-controlled. */
  requestState?: string;
}

/**
 * The retry fields of an MRTR-capable request's params (`tools/call`, `prompts/get`, `resources/read`),
 * 2026-07-28 only. Both apply to that one retry.
 */
export interface InputResponseRequestParams {
  /** Answers to the previous attempt's `inputRequests`. */
  inputResponses?: InputResponses;
  /** Exactly the `requestState` of the previous attempt's result. */
  requestState?: string;
}
