import type { InputRequests } from "@mcpkit/protocol";
import { ResultType, readResultType } from "@mcpkit/protocol";
import { InputRequestError, InvalidResultError } from "../errors.js";
import type { InputHandlers } from "../input.js";
import { fulfil, inputSignal } from "../input-answers.js";
import { isObject } from "../internal/util.js";
import type { CallOptions } from "../options.js";
import type { Session } from "../session.js";
import type { Link, Next, Outbound } from "./link.js";

/** What the rounds need besides the rest of the chain. */
export interface InputRoundsOptions {
  readonly handlers: InputHandlers;
  readonly lifetime: AbortSignal;
  /** How many `input_required` rounds one call may take. */
  readonly maxInputRounds: number;
  /** Whether the client declared the tasks extension (a task answer is then awaited). */
  readonly tasks: boolean;
  /** Awaits a task to its result through `send` (the chain below); its polls are part of `operation`. */
  pollTask(
    send: Next,
    s: Session,
    taskId: string,
    call: CallOptions | undefined,
    operation: object | undefined,
  ): Promise<Record<string, unknown>>;
}

/**
 * The MRTR link, outermost: a request the caller marked as one that may end in `input_required`
 * (`tools/call`, `prompts/get`, `resources/read`) is answered round by round with the handlers and sent
 * again with the answers and the exact `requestState`, at most `maxInputRounds` times; each round goes
 * down the rest of the chain as a request of its own. A legacy result is final as it is; a modern `task`
 * result of a `tools/call` the client asked tasks for is awaited (unless `returnTask`). Other requests pass.
 * @throws InputRequestError after `maxInputRounds` rounds; InvalidResultError on a result that is no
 *   object, an unknown `resultType`, a task nobody asked for, or an empty `input_required`.
 * @see SPEC.md §3.7 MRTR
 */
export function inputRoundsLink(options: InputRoundsOptions): Link {
  return (op, next) => (op.rounds === undefined ? next(op) : runRounds(op, next, options));
}

async function runRounds(first: Outbound, next: Next, options: InputRoundsOptions): Promise<unknown> {
  const { method, session: s } = first;
  const plan = first.rounds!;
  const base = first.params ?? {};
  let op = first;
  for (let round = 0; ; round++) {
    const result = await next(op);
    if (!isObject(result)) throw new InvalidResultError(method, `${method} returned no result object`);
    if (s.era !== "modern") return result;
    const type = readResultType(result);
    if (type === ResultType.Complete) {
      if (round === 0) plan.onDirect?.(result);
      return result;
    }
    if (type === ResultType.Task) {
      if (method !== "tools/call" || !options.tasks || typeof result.taskId !== "string") {
        throw new InvalidResultError(
          method,
          `The server answered ${method} with a task the client did not ask for`,
        );
      }
      if (plan.returnTask) return result;
      return options.pollTask(next, s, result.taskId, op.options, op.operation);
    }
    if (type !== ResultType.InputRequired) {
      throw new InvalidResultError(
        method,
        `Unknown resultType ${JSON.stringify(result.resultType)} from ${method}`,
      );
    }
    if (round >= options.maxInputRounds) {
      throw new InputRequestError(
        `${method} still needed input after ${options.maxInputRounds} rounds (maxInputRounds)`,
      );
    }
    const requests = isObject(result.inputRequests) ? (result.inputRequests as InputRequests) : undefined;
    const state = typeof result.requestState === "string" ? result.requestState : undefined;
    if (!requests && state === undefined) {
      throw new InvalidResultError(
        method,
        "An input_required result carried neither inputRequests nor requestState",
      );
    }
    // inputResponses and requestState belong to this retry only; nothing carries over. @see SPEC.md §3.7
    const params: Record<string, unknown> = { ...base };
    if (requests) {
      const linked = inputSignal(op.options, options.lifetime);
      try {
        params.inputResponses = await fulfil(options.handlers, s, requests, linked.signal);
      } finally {
        linked.unlink();
      }
    }
    if (state !== undefined) params.requestState = state;
    op = op.with({ params });
  }
}
