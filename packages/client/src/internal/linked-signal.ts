/** A signal that aborts when either of two does, and the way to stop following them. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Stops following the sources (idempotent); call it once the work the signal guards has ended. */
  unlink(): void;
}

const NOTHING = (): void => {};

/**
 * Links two signals by hand instead of `AbortSignal.any`: Node keeps a composite signal that has an abort
 * listener alive as long as a source lives (a client's lifetime is long), so every input round whose handler
 * left a `{ once: true }` listener would be kept until the client closed. Here the links are two listeners,
 * removed by `unlink()`. With only `b`, `b` itself is handed back.
 */
export function linkSignals(a: AbortSignal | undefined, b: AbortSignal): LinkedSignal {
  if (a === undefined) return { signal: b, unlink: NOTHING };
  const controller = new AbortController();
  if (a.aborted) controller.abort(a.reason);
  else if (b.aborted) controller.abort(b.reason);
  if (controller.signal.aborted) return { signal: controller.signal, unlink: NOTHING };
  const fromA = () => controller.abort(a.reason);
  const fromB = () => controller.abort(b.reason);
  a.addEventListener("abort", fromA, { once: true });
  b.addEventListener("abort", fromB, { once: true });
  return {
    signal: controller.signal,
    unlink() {
      a.removeEventListener("abort", fromA);
      b.removeEventListener("abort", fromB);
    },
  };
}
