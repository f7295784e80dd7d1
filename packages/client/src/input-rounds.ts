import type { InputRequests, InputResponses } from "@mcpkit/protocol";
import { ResultType, readResultType } from "@mcpkit/protocol";
import { InputRequestError, InvalidResultError } from "./errors.js";
import type { Exchange } from "./exchange.js";
import { answerInputRequest, type InputHandlers } from "./input.js";
import { type LinkedSignal, linkSignals } from "./internal/linked-signal.js";
import { isObject } from "./internal/util.js";
import type { CallOptions } from "./options.js";
import type { Session } from "./session.js";

/**
 * Answers every input request of a map with the handlers, concurrently, keyed as asked. `only` picks the
 * keys to answer (a task answers each key once over its life).
 * @throws InputRequestError when a request has no handler (naming the capability).
 */
export async function fulfil(
  handlers: InputHandlers,
  s: Session,
  requests: InputRequests,
  signal: AbortSignal,
  only?: (key: string) => boolean,
): Promise<InputResponses> {
  const entries = Object.entries(requests).filter(([key]) => !only || only(key));
  const answers = await Promise.all(
    entries.map(([key, request]) =>
      answerInputRequest(handlers, s.declared, isObject(request) ? request : {}, {
        signal,
        era: s.era,
        serverInfo: s.serverInfo,
        key,
      }),
    ),
  );
  const out: InputResponses = {};
  entries.forEach(([key], i) => {
    out[key] = answers[i]!;
  });
  return out;
}

/**
 * The signal an input handler gets: the call's, and the client's lifetime. `unlink()` it once the round
 * (or the task's polling) ended, so nothing stays attached to the long-lived lifetime signal.
 */
export function inputSignal(call: CallOptions | undefined, lifetime: AbortSignal): LinkedSignal {
  return linkSignals(call?.signal, lifetime);
}

/** What the rounds need besides the exchange. */
export interface InputRoundsHooks {
  readonly handlers: InputHandlers;
  readonly lifetime: AbortSignal;
  /** How many `input_required` rounds one call may take. */
  readonly maxInputRounds: number;
  /** Whether the client declared the tasks extension (a task answer is then awaited). */
  readonly tasks: boolean;
  /** Awaits a task to its result (the tasks extension); its polls are part of `operation`. */
  pollTask(
    s: Session,
    taskId: string,
    call: CallOptions | undefined,
    operation?: object,
  ): Promise<Record<string, unknown>>;
}

/**
 * Multi-round-trip requests (MRTR): a request that may end in `input_required` (`tools/call`,
 * `prompts/get`, `resources/read`) is answered round by round with the handlers and retried with a new
 * id, the answers and the exact `requestState`, at most `maxInputRounds` times. A legacy result is
 * final as it is; a modern `task` result of a `tools/call` the client asked tasks for is awaited.
 * @see SPEC.md §3.7 MRTR
 */
export class InputRounds {
  readonly #exchange: Exchange;
  readonly #hooks: InputRoundsHooks;

  constructor(exchange: Exchange, hooks: InputRoundsHooks) {
    this.#exchange = exchange;
    this.#hooks = hooks;
  }

  /**
   * Runs `method` with `base` params to its final result. `onDirect` sees a modern complete result the
   * server gave to the first attempt, without input rounds: the only kind a cache may keep (a retried
   * result MUST NOT be cached, SPEC.md §3.7).
   * With `returnTask`, a task answer is returned as it is (`resultType: "task"`, its `taskId`) instead of
   * being awaited.
   * @throws InputRequestError after `maxInputRounds` rounds; InvalidResultError on a result that is no
   *   object, an unknown `resultType`, a task nobody asked for, or an empty `input_required`.
   */
  async run(
    s: Session,
    method: string,
    base: Record<string, unknown>,
    call: CallOptions | undefined,
    onDirect?: (result: Record<string, unknown>) => void,
    returnTask = false,
  ): Promise<Record<string, unknown>> {
    const exchange = this.#exchange;
    const hooks = this.#hooks;
    let params = base;
    // One token for every round of this call and the polls of its task: telemetry links them to the first.
    const operation = {};
    for (let round = 0; ; round++) {
      const result = await exchange.request(s, method, params, call, undefined, operation);
      if (!isObject(result)) throw new InvalidResultError(method, `${method} returned no result object`);
      if (s.era !== "modern") return result;
      const type = readResultType(result);
      if (type === ResultType.Complete) {
        if (round === 0) onDirect?.(result);
        return result;
      }
      if (type === ResultType.Task) {
        if (method !== "tools/call" || !hooks.tasks || typeof result.taskId !== "string") {
          throw new InvalidResultError(
            method,
            `The server answered ${method} with a task the client did not ask for`,
          );
        }
        return returnTask ? result : hooks.pollTask(s, result.taskId, call, operation);
      }
      if (type === ResultType.InputRequired) {
        if (round >= hooks.maxInputRounds) {
          throw new InputRequestError(
            `${method} still needed input after ${hooks.maxInputRounds} rounds (maxInputRounds)`,
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
        const next: Record<string, unknown> = { ...base };
        if (requests) {
          const linked = inputSignal(call, hooks.lifetime);
          try {
            next.inputResponses = await fulfil(hooks.handlers, s, requests, linked.signal);
          } finally {
            linked.unlink();
          }
        }
        if (state !== undefined) next.requestState = state;
        params = next;
        continue;
      }
      throw new InvalidResultError(
        method,
        `Unknown resultType ${JSON.stringify(result.resultType)} from ${method}`,
      );
    }
  }
}
