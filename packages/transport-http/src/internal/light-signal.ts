/** An abort listener: a function, or an object with `handleEvent` (as EventTarget takes them). */
type AbortListener = (() => void) | { handleEvent(): void };

/**
 * The part of `AbortSignal` this package's fetch and readers use (`aborted`, `reason`, abort listeners,
 * `throwIfAborted`), and the controller's `abort`. It never reaches any other code: the client transport
 * hands one only to a fetch whose `acceptsLightSignal` is `true` (createNodeFetch's, see `NodeFetch`),
 * any other fetch gets a real `AbortSignal`, and createNodeFetch converts it before handing a request to
 * the global fetch.
 */
export class LightSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Array<AbortListener> | undefined;
  /** The signal this one follows (see {@link LightSignal.follow}). */
  private source: AbortSignal | undefined;

  addEventListener(type: string, listener: AbortListener, _options?: unknown): void {
    if (type !== "abort" || this.aborted) return;
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(type: string, listener: AbortListener, _options?: unknown): void {
    const listeners = this.listeners;
    if (type !== "abort" || listeners === undefined) return;
    const at = listeners.indexOf(listener);
    if (at >= 0) listeners.splice(at, 1);
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /**
   * Aborts with `source`'s reason when `source` aborts (at once if it already did), with this object
   * itself as the listener (`handleEvent`): no closure per request. Undo with {@link LightSignal.unfollow}.
   */
  follow(source: AbortSignal): void {
    if (source.aborted) {
      this.abort(source.reason);
      return;
    }
    this.source = source;
    (source as unknown as LightSignal).addEventListener("abort", this, { once: true });
  }

  /** Stops following the signal given to {@link LightSignal.follow}. */
  unfollow(): void {
    const source = this.source;
    if (source === undefined) return;
    this.source = undefined;
    (source as unknown as LightSignal).removeEventListener("abort", this);
  }

  /** The abort listener of {@link LightSignal.follow}. */
  handleEvent(): void {
    const source = this.source;
    if (source === undefined) return;
    this.source = undefined;
    this.abort(source.reason);
  }

  /** Aborts once: every listener runs (each once), as `AbortController.abort` does. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason =
      reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) {
      for (const listener of listeners) {
        if (typeof listener === "function") listener();
        else listener.handleEvent();
      }
    }
  }
}

/** A real `AbortSignal` following `signal` (for handing a request to a standard fetch). */
export function toAbortSignal(signal: AbortSignal | null | undefined): AbortSignal | null | undefined {
  if (!(signal instanceof LightSignal)) return signal;
  const light = signal as LightSignal;
  const controller = new AbortController();
  if (light.aborted) controller.abort(light.reason);
  else light.addEventListener("abort", () => controller.abort(light.reason));
  return controller.signal;
}
