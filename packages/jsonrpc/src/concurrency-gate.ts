/**
 * The peer's bound on requests in flight (`PeerOptions.concurrency`): a request takes a place, waits in
 * call order while all are taken, and gives its place back when it settles. A waiter whose signal aborts
 * leaves the queue with `signal.reason`; {@link ConcurrencyGate.openAll} lets every waiter through (the
 * peer closed, so each fails on its own).
 */
export class ConcurrencyGate {
  readonly #limit: number;
  #active = 0;
  readonly #waiters: Array<() => void> = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Takes a place, waiting for one when all are taken. @throws `signal.reason` when aborted while waiting. */
  async enter(signal: AbortSignal | undefined): Promise<void> {
    if (this.#active < this.#limit) {
      this.#active++;
      return;
    }
    const waiters = this.#waiters;
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = waiters.indexOf(go);
        if (i >= 0) waiters.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      waiters.push(go);
    });
  }

  /** Gives a place back; the first waiter, if any, takes it. */
  leave(): void {
    this.#active--;
    const next = this.#waiters.shift();
    if (next) {
      this.#active++;
      next();
    }
  }

  /** Lets every waiter through at once. */
  openAll(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }
}
