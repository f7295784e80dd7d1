import type { HttpConnectionInfo, HttpMessageInfo } from "../handler.js";
import type { SharedSessionState } from "../server-like.js";
import type { InboundRequest } from "./inbound.js";
import { WebInbound } from "./web-inbound.js";

/**
 * The info of a message that came through the node adapter: `headers` and `httpRequest` are getters
 * (on the prototype, so creating one per message stays cheap), and the adapter builds a `Request` only
 * when the app reads one.
 */
class LazyMessageInfo implements HttpMessageInfo {
  [key: string]: unknown;
  declare signal?: AbortSignal;
  declare sessionId?: string;
  declare authInfo?: unknown;
  declare closeSseStream?: () => void;
  readonly #req: InboundRequest;

  constructor(
    req: InboundRequest,
    readonly protocolVersion: string,
  ) {
    this.#req = req;
  }

  get headers(): Headers {
    return this.#req.headers;
  }

  get httpRequest(): Request {
    return this.#req.request;
  }
}

/** See {@link LazyMessageInfo}: `request` is built when read. */
class LazyConnectionInfo implements HttpConnectionInfo {
  declare sessionId?: string;
  declare adopted?: boolean;
  declare sharedSession?: SharedSessionState;
  readonly #req: InboundRequest;

  constructor(
    req: InboundRequest,
    readonly era: "legacy" | "modern",
  ) {
    this.#req = req;
  }

  get request(): Request {
    return this.#req.request;
  }
}

/** The info of each message of one request (plain data when the request is a Web `Request` already). */
export function messageInfo(
  req: InboundRequest,
  protocolVersion: string,
  sessionId: string | undefined,
  signal: AbortSignal | undefined,
): HttpMessageInfo {
  const info: HttpMessageInfo =
    req instanceof WebInbound
      ? { headers: req.request.headers, httpRequest: req.request, protocolVersion }
      : new LazyMessageInfo(req, protocolVersion);
  if (signal !== undefined) info.signal = signal;
  if (sessionId !== undefined) info.sessionId = sessionId;
  if (req.identity !== undefined) info.authInfo = req.identity.value;
  return info;
}

/**
 * What `connect` is told about a new session or modern request (lazy, as {@link messageInfo}), with the
 * session's shared state when it has one.
 */
export function connectionInfo(
  req: InboundRequest,
  era: "legacy" | "modern",
  sessionId: string | undefined,
  sharedSession?: SharedSessionState,
): HttpConnectionInfo {
  const info: HttpConnectionInfo =
    req instanceof WebInbound ? { era, request: req.request } : new LazyConnectionInfo(req, era);
  if (sessionId !== undefined) info.sessionId = sessionId;
  if (sharedSession !== undefined) info.sharedSession = sharedSession;
  return info;
}

/**
 * The info of a message another instance received and routed here (a shared session): there is no HTTP
 * request on this instance, so the headers are empty and `httpRequest` is a placeholder.
 */
export class RoutedMessageInfo implements HttpMessageInfo {
  [key: string]: unknown;
  readonly headers = new Headers();

  constructor(
    readonly protocolVersion: string,
    readonly sessionId: string,
  ) {}

  get httpRequest(): Request {
    return new Request("http://routed.invalid/", { method: "POST", headers: this.headers });
  }
}
