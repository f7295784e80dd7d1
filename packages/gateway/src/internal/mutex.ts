/** One holder at a time, in arrival order; a waiter whose signal aborts leaves the queue. */
export class Mutex {
  private held = false;
  private readonly queue: Array<() => void> = [];

  acquire(signal?: AbortSignal): Promise<() => void> {
    const release = () => {
      const next = this.queue.shift();
      if (next) next();
      else this.held = false;
    };
    if (!this.held) {
      this.held = true;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve(release);
      };
      const onAbort = () => {
        const at = this.queue.indexOf(grant);
        if (at >= 0) this.queue.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(grant);
    });
  }
}
