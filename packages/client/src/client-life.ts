/** Where the client is in its life: it connects once, may reconnect (respawn), and closes for good. */
export type ClientState = "new" | "connecting" | "open" | "closing" | "closed";

/**
 * The client's state, in one place: the connection moves it on; the parts that must not act on a closing
 * client (retries, a session's sends, `resources/unsubscribe`) read it. Made first, so nothing needs the
 * connection itself to know whether the client is open.
 */
export class ClientLife {
  state: ClientState = "new";

  /** True while the client is open (connected, not closing). */
  isOpen(): boolean {
    return this.state === "open";
  }

  /** True while the client is closing or closed. */
  isClosing(): boolean {
    return this.state === "closing" || this.state === "closed";
  }
}
