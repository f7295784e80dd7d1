import {
  type ClientCapabilities,
  Header,
  type Implementation,
  type LoggingLevel,
  MetaKey,
  modernRequestHeaders,
  type Tool,
} from "@mcpkit/protocol";
import { isObject, withKey } from "./internal/util.js";
import type { Session } from "./session.js";

/**
 * What a request carries besides its own params, computed here and nowhere else, and handed down: the
 * modern `_meta` (version, capabilities, client info, log level) inside the params, and, on a transport
 * that carries headers (HTTP), every header of the send (the transport computes none).
 *
 * Both are cheap on the hot path: the `_meta` a request carries when the call adds nothing of its own is
 * built once per (version, capabilities, log level) and shared; legacy headers are one shared object per
 * version; a modern request gets one header object of its own.
 */
export class RequestEnvelope {
  /** Modern: every later request carries it in `_meta`; legacy: sent again after a re-initialize. */
  logLevel: LoggingLevel | undefined = undefined;
  readonly #clientInfo: Implementation;
  #shared:
    | { version: string; declared: ClientCapabilities; logLevel: string | undefined; meta: object }
    | undefined = undefined;
  #legacyHeaders: { version: string; headers: Readonly<Record<string, string>> } | undefined = undefined;

  constructor(clientInfo: Implementation) {
    this.#clientInfo = clientInfo;
  }

  /**
   * The modern `_meta` of a session's requests. Shared while the session's version, declared
   * capabilities and the log level stay the same: it is only ever serialized, never changed (frozen).
   */
  sharedMeta(session: Session): object {
    const cached = this.#shared;
    if (
      cached !== undefined &&
      cached.version === session.version &&
      cached.declared === session.declared &&
      cached.logLevel === this.logLevel
    ) {
      return cached.meta;
    }
    const meta: Record<string, unknown> = {
      [MetaKey.ProtocolVersion]: session.version,
      [MetaKey.ClientCapabilities]: session.declared,
      [MetaKey.ClientInfo]: this.#clientInfo,
    };
    if (this.logLevel) meta[MetaKey.LogLevel] = this.logLevel;
    Object.freeze(meta);
    this.#shared = { version: session.version, declared: session.declared, logLevel: this.logLevel, meta };
    return meta;
  }

  /**
   * The params as they go out: modern ones with the shared `_meta` (merged over the params' own `_meta`
   * and the call's `extra`, the client's fields winning); legacy ones unchanged unless the call adds
   * `_meta` fields. The caller's object is never changed.
   */
  params(
    session: Session,
    params: Record<string, unknown> | undefined,
    extra: Record<string, unknown> | undefined,
  ): Record<string, unknown> | undefined {
    const base = params ?? {};
    const prior = isObject(base._meta) ? base._meta : undefined;
    if (session.era !== "modern") {
      if (!extra) return params;
      return withKey(base, "_meta", { ...prior, ...extra });
    }
    const shared = this.sharedMeta(session);
    return withKey(base, "_meta", !prior && !extra ? shared : { ...prior, ...extra, ...shared });
  }

  /**
   * The headers of one send, or undefined where the transport has none (stdio, in-memory). Modern:
   * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and a `tools/call`'s `Mcp-Param-*` from `tool`, the
   * tool of that name in the last list (looked up by the caller). Legacy: the version only (the transport
   * keeps the session id; an `initialize` is sent without any).
   * @see SPEC.md §3.11
   */
  headers(
    session: Session,
    method: string,
    params: unknown,
    tool?: Tool | undefined,
  ): Readonly<Record<string, string>> | undefined {
    if (!session.headers) return undefined;
    if (session.era !== "modern") {
      let legacy = this.#legacyHeaders;
      if (legacy?.version !== session.version) {
        legacy = {
          version: session.version,
          headers: Object.freeze({ [Header.ProtocolVersion]: session.version }),
        };
        this.#legacyHeaders = legacy;
      }
      return legacy.headers;
    }
    return modernRequestHeaders(session.version, method, params, tool?.inputSchema);
  }
}
