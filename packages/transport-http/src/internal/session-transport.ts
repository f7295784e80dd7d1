import type { JsonRpcMessage, SendOptions, TransportTraits } from "@mcpkit/jsonrpc";
import { InboundTransport } from "./inbound-transport.js";
import type { Session } from "./legacy-session.js";

/** The session's transport: lives until DELETE, idle expiry, the handler's close, or the app's close. */
export class SessionTransport extends InboundTransport {
  readonly traits: TransportTraits = { perRequestStream: false };

  constructor(private readonly session: Session) {
    super("SessionTransport");
  }

  async send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    this.assertOpen();
    this.session.route(message, options?.relatedRequestId);
  }

  /** The session's id (`Mcp-Session-Id`): state of this transport, read by whoever holds it. */
  get sessionId(): string {
    return this.session.id;
  }

  protected onClosed(): void {
    // A shared session outlives this instance's replica of it: closing here ends nothing elsewhere.
    if (this.session.shared) this.session.release();
    else this.session.terminate();
  }
}
