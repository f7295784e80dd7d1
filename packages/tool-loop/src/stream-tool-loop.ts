import type { LoopEvent } from "./loop-events.js";
import { driveToolLoop, type RunToolLoopOptions, type RunToolLoopResult } from "./run-tool-loop.js";

/** A running tool loop: its events as an async iterable, and its outcome. */
export interface ToolLoopStream extends AsyncIterable<LoopEvent> {
  /**
   * The run's outcome, as `runToolLoop` would give it. Rejects as the run does (a provider error,
   * `signal.reason`, or an `AbortError` when the reader stopped early); a rejection nobody awaits is not
   * reported as unhandled.
   */
  readonly result: Promise<RunToolLoopResult>;
}

/**
 * Runs the tool loop like `runToolLoop`, driving the model through its streaming API, and hands out
 * every event as it happens: text and reasoning deltas, argument pieces, tool calls with their
 * arguments, progress, results, step ends and the finish (see `LoopEvent`).
 *
 * The run starts at once; events that arrive before they are read are queued (iterate once). The
 * iteration ends after `finish`, or throws what ended the run. Leaving the iteration early (`break`,
 * `return`, a throw in the loop body) aborts the run: the provider request and the MCP calls in flight
 * are cancelled, and `result` rejects. `options.signal` aborts it the same way, with its reason.
 */
export function streamToolLoop(options: RunToolLoopOptions): ToolLoopStream {
  const controller = new AbortController();
  const outer = options.signal;
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener("abort", forward, { once: true });

  const queue: LoopEvent[] = [];
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  const result = driveToolLoop(
    { ...options, signal: controller.signal },
    (event) => {
      queue.push(event);
      options.onEvent?.(event);
      notify();
    },
    true,
  ).then(
    (value) => {
      ended = true;
      outer?.removeEventListener("abort", forward);
      notify();
      return value;
    },
    (error: unknown) => {
      ended = true;
      failure = { error };
      outer?.removeEventListener("abort", forward);
      notify();
      throw error;
    },
  );
  result.catch(() => {});

  let iterated = false;
  return {
    result,
    [Symbol.asyncIterator](): AsyncIterator<LoopEvent> {
      if (iterated) throw new Error("streamToolLoop: the stream can be iterated once");
      iterated = true;
      return {
        async next(): Promise<IteratorResult<LoopEvent>> {
          for (;;) {
            const event = queue.shift();
            if (event) return { value: event, done: false };
            if (failure) throw failure.error;
            if (ended) return { value: undefined, done: true };
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
        },
        async return(): Promise<IteratorResult<LoopEvent>> {
          if (!ended) {
            controller.abort(new DOMException("The reader of the tool loop's stream stopped", "AbortError"));
            // Wait for the run to settle, so no call is left running once the reader moves on.
            await result.catch(() => {});
          }
          return { value: undefined, done: true };
        },
      };
    },
  };
}
