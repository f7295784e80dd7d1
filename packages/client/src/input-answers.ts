import type { InputRequests, InputResponses } from "@mcpkit/protocol";
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
