/**
 * A FIFO mutex for `serialize: true`: one exchange at a time, in call order. A waiter that is aborted
 * leaves the queue with `signal.reason`; {@link Lock.shut} fails every waiter and every later acquire.
 */
export class Lock {
  private held = false;
  private queue: Array<{ grant(): void; fail(error: unknown): void }> = [];
  private shutError: Error | undefined;
  private freed: Array<() => void> = [];

  /** Waits for the lock; resolves with the function that releases it (call it exactly once). */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.shutError) return Promise.reject(this.shutError);
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!this.held) {
      this.held = true;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const i = this.queue.indexOf(entry);
        if (i >= 0) this.queue.splice(i, 1);
        reject(signal!.reason);
      };
      const entry = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(this.releaser());
        },
        fail: (error: unknown) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(entry);
    });
  }

  /** Fails every waiter and later acquire with `error`; the holder keeps the lock until it releases. */
  shut(error: Error): void {
    this.shutError ??= error;
    for (const entry of this.queue.splice(0)) entry.fail(error);
  }

  /** Resolves once nobody holds the lock. */
  whenFree(): Promise<void> {
    if (!this.held) return Promise.resolve();
    return new Promise((resolve) => this.freed.push(resolve));
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.queue.shift();
      if (next) {
        next.grant();
        return;
      }
      this.held = false;
      for (const resolve of this.freed.splice(0)) resolve();
    };
  }
}
