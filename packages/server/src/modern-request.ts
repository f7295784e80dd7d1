import type {
  InboundWatch,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  MessageInfo,
  PeerObserver,
  RequestContext,
} from "@mcpkit/jsonrpc";
import type { HandleContext } from "./handle.js";

type Params = Record<string, unknown>;

/** The signal of a request whose carrier gave none: it never aborts. Made once, on first use. */
let neverAborted: AbortSignal | undefined;

/**
 * The light context of one 2026-07-28 request served by `Server.handle`: what the method handlers read
 * of a {@link RequestContext} (id, method, signal, info, notify), taken from the carrier's
 * {@link HandleContext}. No peer, no pending map, no connection: it is made and dropped with the call.
 */
export class ModernRequest implements RequestContext {
  /** The observer's watch of this request, when telemetry is on. */
  watch: InboundWatch | undefined = undefined;

  constructor(
    readonly id: JsonRpcId,
    readonly method: string,
    private readonly context: HandleContext,
    private readonly observer: PeerObserver | undefined,
    /** The wire trace's tap (see `ModernObservation`), undefined when off. */
    readonly tap: ((direction: "in" | "out", message: JsonRpcMessage) => void) | undefined,
  ) {}

  get info(): MessageInfo | undefined {
    return this.context.info;
  }

  get signal(): AbortSignal {
    const signal = this.context.signal ?? this.context.info?.signal;
    if (signal !== undefined) return signal;
    neverAborted ??= new AbortController().signal;
    return neverAborted;
  }

  get aborted(): boolean {
    return (this.context.signal ?? this.context.info?.signal)?.aborted === true;
  }

  /** Sends `method` on the request's own stream; dropped when the carrier has none. */
  async notify(method: string, params?: Params): Promise<void> {
    const send = this.context.notify;
    if (send === undefined) return;
    const observer = this.observer;
    const sent = observer === undefined ? params : observer.notificationOut(method, params ?? {});
    const message: JsonRpcNotification =
      sent === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params: sent };
    this.tap?.("out", message);
    await send.call(this.context, message);
  }

  /**
   * A 2026-07-28 server never sends a request to the client: it asks with an `input_required` result
   * (MRTR), which `ctx.elicit`, `ctx.sample` and `ctx.listRoots` do in a `tools/call`, `prompts/get` or
   * `resources/read`.
   */
  request(method: string): Promise<unknown> {
    return Promise.reject(
      new Error(
        `A 2026-07-28 request cannot send ${method} to the client: only tools, prompts and resources ask (MRTR)`,
      ),
    );
  }
}
