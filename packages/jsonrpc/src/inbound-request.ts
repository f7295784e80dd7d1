import type { JsonRpcId } from "./messages.js";
import type { InboundWatch } from "./peer-observer.js";
import type { Params, Peer, RequestContext, RequestOptions } from "./peer-types.js";
import type { MessageInfo } from "./transport.js";

/**
 * One inbound request in flight; it is also the handler's {@link RequestContext}. Its abort signal is
 * made only when a handler reads it: most handlers never do, and an AbortController per request is
 * measurable on the hot path. Cancellation is recorded either way, so a cancelled request is never
 * answered.
 */
export class Inbound implements RequestContext {
  private controller: AbortController | undefined;
  /** Removes the link from the transport's signal (`info.signal`) to {@link controller}, once made. */
  private unlink: (() => void) | undefined;
  private reason: unknown;
  private cancelled = false;
  /** The observer's watch of this request, when the peer has an observer. */
  watch: InboundWatch | undefined = undefined;

  constructor(
    readonly id: JsonRpcId,
    readonly method: string,
    readonly info: MessageInfo | undefined,
    private readonly peer: Peer,
  ) {}

  get signal(): AbortSignal {
    if (this.controller) return this.controller.signal;
    const controller = new AbortController();
    this.controller = controller;
    const outer = this.info?.signal;
    if (this.cancelled) controller.abort(this.reason);
    else if (outer?.aborted) controller.abort(outer.reason);
    else if (outer) {
      // Linked by hand, not with AbortSignal.any: Node keeps a composite signal that has an abort
      // listener alive until it aborts (its gcPersistentSignals), so a handler's listener never removed
      // (the common `{ once: true }` pattern) would keep every request that finished normally for ever.
      const onAbort = () => controller.abort(outer.reason);
      outer.addEventListener("abort", onAbort, { once: true });
      this.unlink = () => outer.removeEventListener("abort", onAbort);
    }
    return controller.signal;
  }

  /** Called once the request settled: the transport's signal no longer reaches this request. */
  settle(): void {
    this.unlink?.();
    this.unlink = undefined;
  }

  /** True once the peer cancelled, the peer closed, or the request's own stream closed. */
  get aborted(): boolean {
    return this.cancelled || this.info?.signal?.aborted === true;
  }

  abort(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }

  notify(method: string, params?: Params): Promise<void> {
    return this.peer.notify(method, params, { relatedRequestId: this.id });
  }

  request(method: string, params?: Params, options?: RequestOptions): Promise<unknown> {
    // Object.assign rather than a spread with extra keys: the latter is a slow path on Node 20.
    const opts: RequestOptions = Object.assign({ signal: this.signal }, options);
    opts.relatedRequestId = this.id;
    return this.peer.request(method, params, opts);
  }
}
