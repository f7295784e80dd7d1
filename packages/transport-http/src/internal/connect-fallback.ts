import {
  ConnectionClosedError,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type SendOptions,
  type TransportTraits,
} from "@mcpkit/jsonrpc";
import type { HttpConnectionInfo, HttpMessageInfo, StreamableHttpHandlerOptions } from "../handler.js";
import type { ModernRequestContext, ServerLike } from "../server-like.js";
import { InboundTransport } from "./inbound-transport.js";

/**
 * The `handle` of an app that gave the handler only `connect` (no `server`): each 2026-07-28 message is
 * carried by a transport of its own, connected to the app for that message alone, as before
 * `ServerLike` existed. A server with `handle` (such as `@mcpkit/server`'s) never takes this path; it
 * stays for apps built on a bare JSON-RPC peer.
 */
export function handleThroughConnect(
  connect: StreamableHttpHandlerOptions["connect"] & {},
): ServerLike["handle"] {
  return async (message, context) => {
    const transport = new OneMessageTransport(context);
    await connect(transport, new ModernConnectionInfo(context.info as HttpMessageInfo));
    return transport.carry(message);
  };
}

/** What `connect` is told about a modern request's transport (the `Request` is built when read). */
class ModernConnectionInfo implements HttpConnectionInfo {
  readonly era = "modern";
  constructor(private readonly info: HttpMessageInfo) {}
  get request(): Request {
    return this.info.httpRequest;
  }
}

/**
 * The transport of one message: it delivers that message, sends the app's notifications to the
 * request's stream, and closes itself once the response came, the request was cancelled, or (for a
 * notification) at once after delivery.
 */
class OneMessageTransport extends InboundTransport {
  readonly traits: TransportTraits = { perRequestStream: true };
  private settle: ((response: JsonRpcResponse | undefined) => void) | undefined;
  private request: JsonRpcRequest | undefined;

  constructor(private readonly context: ModernRequestContext) {
    super("OneMessageTransport");
  }

  /** Delivers `message`; resolves with its response (undefined for a notification or a cancel). */
  carry(message: JsonRpcRequest | JsonRpcNotification): Promise<JsonRpcResponse | undefined> {
    if (!("id" in message) || message.id === undefined) {
      this.deliver(message, this.context.info);
      void this.close();
      return Promise.resolve(undefined);
    }
    this.request = message;
    const answered = new Promise<JsonRpcResponse | undefined>((resolve) => (this.settle = resolve));
    const signal = this.context.signal;
    // Closing the response stream is the cancellation of the request in this era.
    if (signal.aborted) void this.close();
    else signal.addEventListener("abort", () => void this.close(), { once: true });
    this.deliver(message, this.context.info);
    return answered;
  }

  async send(message: JsonRpcMessage, _options?: SendOptions): Promise<void> {
    this.assertOpen();
    const request = this.request;
    if (request === undefined) throw new ConnectionClosedError("A notification has no response stream");
    if (!("method" in message) && message.id === request.id) {
      this.settle?.(message);
      this.settle = undefined;
      void this.close();
      return;
    }
    // Everything else the app sends belongs to the one request this transport carries.
    this.context.notify(message as JsonRpcNotification);
  }

  protected onClosed(): void {
    this.settle?.(undefined);
    this.settle = undefined;
  }
}
