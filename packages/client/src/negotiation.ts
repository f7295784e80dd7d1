import { JsonRpcError, type RequestOptions, TimeoutError, type Transport } from "@mcpkit/jsonrpc";
import {
  type DiscoverResult,
  type Implementation,
  isLegacyVersion,
  isModernError,
  isModernVersion,
  McpError,
  McpErrorCode,
  MetaKey,
  MODERN_PROTOCOL_VERSIONS,
  type ProtocolEra,
  ResultType,
  readResultType,
  readUnsupportedVersionData,
  type ServerCapabilities,
} from "@mcpkit/protocol";
import type { RememberedEra } from "./era-cache.js";
import { InvalidResultError } from "./errors.js";
import { linkSignals } from "./internal/linked-signal.js";
import { httpStatusOf, isFatal, isObject, toWireError } from "./internal/util.js";
import { type Budget, initializeLegacy } from "./legacy-handshake.js";
import type { ClientSettings } from "./options.js";
import type { RequestEnvelope } from "./request-envelope.js";
import type { Session } from "./session.js";
import type { Plan } from "./transport-source.js";

const HTTP_FALLBACK_STATUSES = new Set([400, 404, 405]);

/** What negotiation needs from the client. */
export interface NegotiationHooks {
  /** Aborted when the client closes: every handshake stops. */
  readonly lifetime: AbortSignal;
  readonly envelope: RequestEnvelope;
  /** Creates a session on a new transport and starts it. */
  startSession(inner: Transport): Promise<Session>;
}

/**
 * Session set-up: picks the era and runs the handshake on transports from the plan, bounded by
 * `connectTimeout`. `auto` probes `server/discover` and falls back to `initialize` as the spec's
 * compatibility rules say (never keyed to one error code), over HTTP on to HTTP+SSE when `initialize` gets
 * 400/404/405; an explicit era always wins. The era a server settled on is remembered (per server key, in
 * the era cache) and tried first next time.
 * @see SPEC.md §3.4 Back-compat
 */
export class Negotiator {
  readonly #settings: ClientSettings;
  readonly #hooks: NegotiationHooks;
  #remembered: RememberedEra | undefined = undefined;
  #serverKey: string | undefined = undefined;

  constructor(settings: ClientSettings, hooks: NegotiationHooks) {
    this.#settings = settings;
    this.#hooks = hooks;
  }

  /**
   * Starts from what the era cache remembers of `serverKey` (nothing without a key), as far as the options
   * leave the choice open: an explicit `protocolVersion` takes nothing from the cache, an explicit
   * `versionNegotiation` only an entry of its own era. What the app said always wins over what was seen.
   */
  recall(serverKey: string | undefined): void {
    this.#serverKey = serverKey;
    if (serverKey === undefined) return;
    const remembered = this.#settings.eraCache.get(serverKey);
    const { negotiation, options } = this.#settings;
    const open =
      options.protocolVersion === undefined && (negotiation === "auto" || remembered?.era === negotiation);
    this.#remembered = open ? remembered : undefined;
  }

  /** Remembers the era and version `session` settled on, in the era cache too when there is a key. */
  remember(session: Session): void {
    const remembered: RememberedEra = { era: session.era, protocolVersion: session.version };
    if (this.#remembered?.via === "sse" && session.era === "legacy") remembered.via = "sse";
    this.#remembered = remembered;
    if (this.#serverKey !== undefined) this.#settings.eraCache.set(this.#serverKey, remembered);
  }

  /**
   * Runs the handshake on a new transport from the plan, bounded by `connectTimeout`.
   * @throws TimeoutError when it did not finish in time; `signal.reason` when aborted; `McpError` when the
   *   server refused; `InvalidResultError` when no version both sides speak was found.
   */
  async establish(plan: Plan, signal: AbortSignal | undefined): Promise<Session> {
    const lifetime = this.#hooks.lifetime;
    const deadline = Date.now() + this.#settings.connectTimeout;
    // Linked by hand and unlinked when the handshake ends: nothing stays on the client's lifetime signal.
    const linked = linkSignals(signal, lifetime);
    try {
      return await this.#establish(plan, linked.signal, deadline);
    } finally {
      linked.unlink();
    }
  }

  async #establish(plan: Plan, abort: AbortSignal, deadline: number): Promise<Session> {
    const { connectTimeout, negotiation } = this.#settings;
    const budget: Budget = () => {
      abort.throwIfAborted();
      const left = deadline - Date.now();
      if (left <= 0) throw new TimeoutError(`connect() timed out after ${connectTimeout} ms`, connectTimeout);
      return left;
    };
    // What was asked and never answered: a connect timeout names it (the phase a user must look at).
    const unanswered: string[] = [];
    const remembered = this.#remembered;
    // An explicit era always wins; `auto` starts with the era remembered for this server, if any.
    const order: ProtocolEra[] =
      negotiation !== "auto"
        ? [negotiation]
        : remembered?.era === "legacy"
          ? ["legacy", "modern"]
          : ["modern", "legacy"];
    const start = this.#hooks.startSession;
    let s: Session | undefined;
    try {
      if (remembered?.via === "sse" && plan.hasSse) {
        s = await start(await plan.create("sse"));
        await this.#initialize(s, budget, abort);
        return s;
      }
      s = await start(await plan.create(order[0] === "legacy" ? "legacy" : "modern"));
      let modernHint: string | undefined;
      for (let i = 0; i < order.length; i++) {
        const era = order[i]!;
        const hasNext = i + 1 < order.length;
        if (era === "modern") {
          const outcome = await this.#discover(s, budget, abort, hasNext, modernHint, unanswered);
          if (outcome === true) return s;
          if (hasNext && plan.separateLegacy) {
            await s.close();
            s = await start(await plan.create("legacy"));
          }
          continue;
        }
        try {
          await this.#initialize(s, budget, abort);
          return s;
        } catch (error) {
          if (error instanceof TimeoutError) unanswered.push("initialize");
          if (abort.aborted || error instanceof TimeoutError) throw error;
          const status = httpStatusOf(error);
          if (plan.hasSse && status !== undefined && HTTP_FALLBACK_STATUSES.has(status)) {
            await s.close();
            s = await start(await plan.create("sse"));
            await this.#initialize(s, budget, abort);
            this.#remembered = { era: "legacy", protocolVersion: s.version, via: "sse" };
            return s;
          }
          // A modern-only server names its versions in the error it gives `initialize`.
          const supported = readUnsupportedVersionData(error)?.supported ?? [];
          modernHint = supported.find((v) => isModernVersion(v));
          if (negotiation === "auto" && (modernHint || isModernError(error))) {
            if (hasNext) continue;
            // The probe was lost (a slow start, say); the server has now said it is modern.
            if (await this.#discover(s, budget, abort, false, modernHint, unanswered)) return s;
          }
          throw error;
        }
      }
      throw new InvalidResultError(
        "server/discover",
        "The server supports no protocol version this client speaks",
      );
    } catch (error) {
      if (error instanceof TimeoutError && !abort.aborted) {
        // The bound covers the teardown: a stdio child that ignores its closed stdin is given a grace
        // period before SIGTERM, which must not be added to connectTimeout. It goes on in the background.
        void s?.close(error);
        throw connectTimeoutError(connectTimeout, unanswered, s, error);
      }
      await s?.close(error instanceof Error ? error : undefined);
      throw toWireError(error);
    }
  }

  /**
   * `server/discover`: true when the server is modern (the session is then set up); false when the
   * caller should fall back to `initialize`. Throws when there is nothing to fall back to.
   */
  async #discover(
    s: Session,
    budget: Budget,
    signal: AbortSignal,
    probing: boolean,
    hint: string | undefined,
    unanswered: string[] = [],
  ): Promise<boolean> {
    const remembered = this.#remembered;
    const envelope = this.#hooks.envelope;
    s.speak(
      "modern",
      hint ?? (remembered?.era === "modern" ? remembered.protocolVersion : this.#settings.preferredModern),
    );
    // -32022 names the versions to retry with; allow a couple of retries, never a loop.
    for (let attempt = 0; attempt < 3; attempt++) {
      const left = budget();
      let result: unknown;
      try {
        const probe: RequestOptions = {
          timeout: probing ? Math.min(this.#settings.probeTimeout, left) : left,
          signal,
        };
        const headers = envelope.headers(s, "server/discover", undefined);
        if (headers !== undefined) probe.headers = headers;
        result = await s.peer.request("server/discover", envelope.params(s, {}, undefined), probe);
      } catch (error) {
        if (signal.aborted) throw error;
        if (error instanceof TimeoutError) unanswered.push("server/discover");
        if (error instanceof JsonRpcError && error.code === McpErrorCode.UnsupportedProtocolVersion) {
          const supported = readUnsupportedVersionData(error)?.supported ?? [];
          const next = MODERN_PROTOCOL_VERSIONS.find((v) => supported.includes(v));
          if (next) {
            s.speak("modern", next);
            continue;
          }
          if (probing && supported.some((v) => isLegacyVersion(v))) return false;
          throw this.#notModern(error);
        }
        if (probing && !isModernError(error) && !isFatal(error, s.peer)) {
          // Any other error or a timeout means legacy (never keyed to one code). @see SPEC.md §3.4
          if (error instanceof TimeoutError) budget();
          return false;
        }
        if (!isModernError(error) && !(error instanceof TimeoutError) && !isFatal(error, s.peer)) {
          throw this.#notModern(error);
        }
        throw toWireError(error);
      }
      return acceptDiscover(s, result, probing);
    }
    throw new InvalidResultError(
      "server/discover",
      "The server kept rejecting every protocol version offered",
    );
  }

  /**
   * The error for a client pinned to the modern era whose `server/discover` a server refused in a way that
   * says it does not speak that era (a legacy-only HTTP server asks for `Mcp-Session-Id`, say): said plainly,
   * with the server's own answer as the cause.
   */
  #notModern(error: unknown): unknown {
    if (this.#settings.negotiation !== "modern") return toWireError(error);
    const detail = error instanceof Error ? error.message : String(error);
    const message = `The server does not speak the ${this.#settings.preferredModern} protocol revision that versionNegotiation "modern" requires (it answered server/discover with: ${detail}); connect with versionNegotiation "auto" or "legacy"`;
    // A wire error keeps its class and code (code that tells errors apart by code still can).
    if (error instanceof JsonRpcError) return new McpError(error.code, message, error.data, { cause: error });
    return new InvalidResultError("server/discover", message, { cause: error });
  }

  /** `initialize` at the remembered legacy version, else the preferred one. */
  #initialize(s: Session, budget: Budget, signal: AbortSignal): Promise<void> {
    const remembered = this.#remembered;
    const version =
      remembered?.era === "legacy" ? remembered.protocolVersion : this.#settings.preferredLegacy;
    return initializeLegacy(s, version, budget, signal, this.#settings, this.#hooks.envelope);
  }
}

/** Takes a `server/discover` result: true when it is one (the session is set up from it). */
export function acceptDiscover(s: Session, result: unknown, probing: boolean): boolean {
  if (!isObject(result))
    throw new InvalidResultError("server/discover", "server/discover returned no object");
  const type = readResultType(result);
  if (type !== ResultType.Complete) {
    throw new InvalidResultError(
      "server/discover",
      `Unexpected resultType ${JSON.stringify(result.resultType)}`,
    );
  }
  if (!Array.isArray(result.supportedVersions)) {
    // Not a DiscoverResult: a server that answers any method with something is not modern for that.
    if (probing) return false;
    throw new InvalidResultError("server/discover", "server/discover returned no supportedVersions");
  }
  const supported = result.supportedVersions as unknown[];
  if (supported.length > 0 && !supported.includes(s.version)) {
    const next = MODERN_PROTOCOL_VERSIONS.find((v) => supported.includes(v));
    if (!next) {
      if (probing) return false;
      throw new InvalidResultError(
        "server/discover",
        `The server supports ${supported.join(", ")}; this client speaks ${MODERN_PROTOCOL_VERSIONS.join(", ")} in the modern era`,
      );
    }
    s.speak("modern", next);
  }
  const meta = isObject(result._meta) ? result._meta : {};
  const info = meta[MetaKey.ServerInfo] ?? result.serverInfo;
  s.serverInfo = isObject(info) ? (info as unknown as Implementation) : undefined;
  s.serverCapabilities = isObject(result.capabilities) ? (result.capabilities as ServerCapabilities) : {};
  s.instructions = typeof result.instructions === "string" ? result.instructions : undefined;
  s.discovery = result as unknown as DiscoverResult;
  return true;
}

/**
 * The error of a handshake that ran out of `connectTimeout`, naming what went unanswered and quoting the
 * first output of the server that was not JSON (a stdio server that prints a banner to stdout is the
 * usual cause of a handshake that never ends).
 */
function connectTimeoutError(
  connectTimeout: number,
  unanswered: readonly string[],
  s: Session | undefined,
  cause: TimeoutError,
): TimeoutError {
  const asked = [...new Set(unanswered)];
  const phase =
    asked.length > 0
      ? `no answer to ${asked.join(" nor ")}`
      : s === undefined
        ? "the transport did not start"
        : "the handshake did not get to send a request";
  let message = `connect() timed out after ${connectTimeout} ms: ${phase}`;
  const invalid = s?.firstInvalid;
  if (invalid !== undefined) {
    message += invalid.startsWith("Not JSON: ")
      ? `. The server wrote a line that is not JSON-RPC: ${invalid.slice("Not JSON: ".length)} (over stdio, logs belong on stderr)`
      : `. The server sent something that is not JSON-RPC: ${invalid}`;
  }
  const error = new TimeoutError(message, connectTimeout);
  (error as Error).cause = cause;
  return error;
}
