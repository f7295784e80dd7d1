/**
 * Resolves after `ms` milliseconds, or rejects with `signal.reason` as soon as `signal` aborts (at once
 * when it already has), as `fetch` does: an abort is never turned into a timeout or a quiet resolve.
 *
 * The timer is cleared and the abort listener removed whichever comes first, so a long-lived signal
 * (a connection's lifetime) collects no listeners from many sleeps. Backoff between reconnections and
 * polling intervals use it; it does not `unref` the timer (a runtime-neutral timer has no such method).
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
