import { ConnectionClosedError } from "@mcpkit/jsonrpc";
import type { ClientLife, ClientState } from "./client-life.js";
import type { Lock } from "./internal/lock.js";
import type { Negotiator } from "./negotiation.js";
import type { ConnectOptions } from "./options.js";
import type { Session } from "./session.js";
import { normalizeSource, type Plan, type TransportSource } from "./transport-source.js";

/** What the connection needs from the rest of the client. */
export interface ConnectionHooks {
  readonly negotiator: Negotiator;
  /** The client's state, which the connection moves on. */
  readonly life: ClientLife;
  /** Aborted by `close()`: stops handshakes, polls and input handlers. */
  readonly lifetime: AbortController;
  /** The turn of `serialize`, shut on close. */
  readonly lock: Lock | undefined;
  readonly autoRespawn: boolean;
  /** A new session was settled (the caches of the old one are void). */
  onSettled(session: Session): void;
  /** The app's `ClientOptions.onClose`: runs once, after the session closed (even when that failed). */
  onClose?: (() => void | Promise<void>) | undefined;
}

/**
 * The client's life: `connect()` once, the current session, the reconnection that `autoRespawn` makes
 * after the transport died (through the factory given to `connect()`; calls in flight are never
 * replayed), and `close()`, idempotent, which lets the exchange in flight finish when `serialize` is on
 * and ends every stream quietly.
 */
export class Connection {
  session: Session | undefined = undefined;
  readonly #hooks: ConnectionHooks;
  readonly #life: ClientLife;
  #plan: Plan | undefined = undefined;
  #respawning: Promise<Session> | undefined = undefined;
  #closing: Promise<void> | undefined = undefined;

  constructor(hooks: ConnectionHooks) {
    this.#hooks = hooks;
    this.#life = hooks.life;
  }

  /** Where the client is in its life (kept in {@link ClientLife}). */
  get state(): ClientState {
    return this.#life.state;
  }

  set state(state: ClientState) {
    this.#life.state = state;
  }

  /** True while the client is closing or closed. */
  isClosing(): boolean {
    return this.#life.isClosing();
  }

  /**
   * Connects through `source` and negotiates the era.
   * @throws Error when called twice or after close; what the handshake threw otherwise.
   */
  async connect(source: TransportSource, options: ConnectOptions): Promise<void> {
    if (this.state !== "new") {
      throw new Error(
        this.isClosing()
          ? "connect() on a closed client: create a new client"
          : "connect() was called twice: a client connects once (it reconnects by itself with autoRespawn)",
      );
    }
    this.state = "connecting";
    try {
      const plan = normalizeSource(source);
      this.#plan = plan;
      this.#hooks.negotiator.recall(options.serverKey);
      const s = await this.#hooks.negotiator.establish(plan, options.signal);
      // close() may have run while the handshake did.
      if ((this.state as ClientState) !== "connecting") {
        await s.close();
        throw new ConnectionClosedError("The client was closed while connecting");
      }
      this.#settle(s);
      this.state = "open";
    } catch (error) {
      if (this.state === "connecting") this.state = "new";
      throw error;
    }
  }

  /** The session when it is open and alive: the common case, answered without a promise. */
  live(): Session | undefined {
    const session = this.session;
    return this.state === "open" && session !== undefined && !session.dead ? session : undefined;
  }

  /**
   * The live session, reconnecting it first when it died and `autoRespawn` allows.
   * @throws ConnectionClosedError when closed, or when the connection ended and cannot be remade;
   *   Error before `connect()`.
   */
  async ensure(): Promise<Session> {
    const state = this.state;
    if (state === "closing" || state === "closed") throw new ConnectionClosedError("The client is closed");
    const session = this.session;
    if (state === "new" || state === "connecting" || !session) {
      throw new Error("The client is not connected: await client.connect(transport) first");
    }
    if (!session.dead) return session;
    if (this.#respawning) return this.#respawning;
    const reason = session.closeReason;
    const detail = reason ? `: ${reason.message}` : "";
    if (!this.#hooks.autoRespawn) {
      throw new ConnectionClosedError(
        `The connection to the server ended${detail}. Create the client with autoRespawn: true and connect() with a transport factory to restart the server on the next call`,
        { cause: reason },
      );
    }
    const plan = this.#plan;
    if (!plan?.respawnable) {
      throw new ConnectionClosedError(
        `The connection to the server ended${detail}. autoRespawn needs connect() to be given a transport factory, not a Transport object`,
        { cause: reason },
      );
    }
    this.#respawning = this.#hooks.negotiator
      .establish(plan, undefined)
      .then((s) => this.#settle(s))
      .finally(() => {
        this.#respawning = undefined;
      });
    return this.#respawning;
  }

  /** Closes the session; idempotent. Pending calls fail with `ConnectionClosedError`. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const wasConnecting = this.state === "connecting";
      this.state = "closing";
      const error = new ConnectionClosedError("The client was closed");
      const lock = this.#hooks.lock;
      if (lock) {
        // Queued calls fail now; the exchange in flight may finish. @see ClientOptions.serialize
        lock.shut(error);
        await lock.whenFree();
      }
      this.state = "closed";
      this.#hooks.lifetime.abort(error);
      const s = this.session;
      if (s) {
        for (const sub of [...s.subs]) sub.end();
        s.subs.clear();
      }
      try {
        await s?.close();
        if (wasConnecting) await Promise.resolve();
      } finally {
        await this.#hooks.onClose?.();
      }
    })();
    return this.#closing;
  }

  #settle(s: Session): Session {
    this.session = s;
    this.#hooks.negotiator.remember(s);
    this.#hooks.onSettled(s);
    return s;
  }
}
