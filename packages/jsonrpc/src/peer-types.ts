import type { JsonRpcId } from "./messages.js";
import type { PeerObserver } from "./peer-observer.js";
import type { MessageInfo, Transport } from "./transport.js";

/** The params of a request or notification: by name, by position, or none. */
export type Params = Record<string, unknown> | unknown[] | undefined;

/** A progress notification's params, as routed to {@link RequestOptions.onProgress}. */
export interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
  [key: string]: unknown;
}

/** Options of one outbound request. */
export interface RequestOptions {
  /** Aborting rejects the request with `signal.reason` and cancels it at the peer. */
  signal?: AbortSignal;
  /** Milliseconds to wait for the answer; `Infinity` waits for ever. Default: the peer's `timeout`. */
  timeout?: number;
  /** Asks for progress: a `progressToken` is attached to `params._meta` and notifications are routed here. */
  onProgress?: (progress: ProgressParams) => void;
  /** Restart the timeout whenever progress arrives. Default true. */
  resetTimeoutOnProgress?: boolean;
  /** Upper bound on the whole wait, however much progress arrives. Default: 10 × `timeout`. */
  maxTotalTimeout?: number;
  /** The inbound request this one is made on behalf of (a server asking the client mid-request). */
  relatedRequestId?: JsonRpcId;
  /** Passed down to {@link Transport.send} as {@link SendOptions.headers} (HTTP); ignored by stdio and in-memory. */
  headers?: Readonly<Record<string, string>>;
  /**
   * Called synchronously with the id the peer assigned, before the request is handed to the transport (so
   * anything the answer or a tagged notification needs is in place first). A throw fails the request as a
   * send failure would.
   */
  onId?: (id: JsonRpcId) => void;
  /**
   * Requests sent with the same object are one operation (the rounds of one multi-round call, the polls of
   * one task). The peer only hands it to its observer, which may link each to the first.
   */
  operation?: object;
}

/** Options of a notification. */
export interface NotifyOptions {
  relatedRequestId?: JsonRpcId;
}

/** What a request handler receives besides the params. */
export interface RequestContext {
  /** The request id, as the peer sent it. */
  readonly id: JsonRpcId;
  readonly method: string;
  /** Aborted when the peer cancels the request, its response stream closes, or the peer closes. */
  readonly signal: AbortSignal;
  /**
   * The same fact as `signal.aborted`, read without making the signal: a handler that only needs to know
   * (not to be told) should read this; the signal is created on first use.
   */
  readonly aborted: boolean;
  /** What the transport knows about the message (headers, auth); passed through untouched. */
  readonly info: MessageInfo | undefined;
  /** Sends a notification tied to this request (it travels on the request's stream where there is one). */
  notify(method: string, params?: Params): Promise<void>;
  /** Sends a request to the peer on behalf of this one. */
  request(method: string, params?: Params, options?: RequestOptions): Promise<unknown>;
}

/** What a notification handler receives besides the params. */
export interface NotificationContext {
  readonly method: string;
  readonly info: MessageInfo | undefined;
}

/** Answers one inbound request: its return value is the result; a thrown {@link JsonRpcError} is sent as is. */
export type RequestHandler = (params: any, context: RequestContext) => unknown;
/** Handles one inbound notification; a throw goes to `onError`, never to the peer. */
export type NotificationHandler = (params: any, context: NotificationContext) => void | Promise<void>;

/** Options of {@link createPeer}. */
export interface PeerOptions {
  /** Default timeout of every request in milliseconds (default 60 s; `Infinity` disables). */
  timeout?: number;
  /** Default bound on a request's whole wait when progress keeps resetting its timeout. */
  maxTotalTimeout?: number;
  /** Default of {@link RequestOptions.resetTimeoutOnProgress}: true. */
  resetTimeoutOnProgress?: boolean;
  /**
   * How many outbound requests may be in flight at once (default unlimited). With 1, exchanges are
   * strictly one at a time and each request's timeout counts from the moment it takes its turn.
   */
  concurrency?: number;
  /** Method of the cancel notification, `null` for none. Default `notifications/cancelled` (MCP, params `{ requestId, reason }`). */
  cancelMethod?: string | null;
  /** Method of progress notifications, `null` for none. Default `notifications/progress` (MCP, params `{ progressToken, … }`). */
  progressMethod?: string | null;
  /** Local problems nobody awaits: a handler's unexpected throw, a response to an unknown id, a bad frame. */
  onError?: (error: Error) => void;
  /** Called once when the peer closes, with the transport's reason when there was one. */
  onClose?: (reason?: Error) => void;
  /** Initial value of {@link Peer.batches} (default true, as JSON-RPC 2.0 has it). */
  batches?: boolean;
  /**
   * When set, outbound request ids are strings, this prefix followed by the increasing counter, instead of
   * numbers: several processes serving one session (a cluster) give each its own prefix, so an answer that
   * reaches another process can be routed back by its id. Default: numeric ids.
   */
  requestIdPrefix?: string;
  /**
   * Told of every request and notification both ways (tracing, metrics): see {@link PeerObserver}. Read
   * once at construction; without one the peer does no observation work at all.
   */
  observer?: PeerObserver | undefined;
}

/** A JSON-RPC endpoint over a {@link Transport}: correlates requests and responses, both ways. */
export interface Peer {
  /** Starts the transport. Handlers may be registered before or after; requests need a started peer. */
  start(): Promise<void>;
  /**
   * Sends a request and resolves with its result.
   * @throws JsonRpcError when the peer answered with an error.
   * @throws TimeoutError when no answer came in time; `signal.reason` when aborted;
   *   `ConnectionClosedError` (or the transport's close reason) when the connection ended first.
   */
  request(method: string, params?: Params, options?: RequestOptions): Promise<unknown>;
  /** Sends a notification. */
  notify(method: string, params?: Params, options?: NotifyOptions): Promise<void>;
  /** Registers the handler of one method, replacing any earlier one. Returns a function that removes it. */
  onRequest(method: string, handler: RequestHandler): () => void;
  /** Registers the handler for requests whose method has no handler of its own (default: -32601). */
  onAnyRequest(handler: RequestHandler | undefined): void;
  onNotification(method: string, handler: NotificationHandler): () => void;
  onAnyNotification(handler: NotificationHandler | undefined): void;
  /** Closes the peer and its transport; idempotent. Every pending request rejects at once. */
  close(reason?: Error): Promise<void>;
  /** Resolves (never rejects) when the peer has closed, with the reason if there was one. */
  readonly closed: Promise<Error | undefined>;
  readonly isClosed: boolean;
  /** Outbound requests awaiting an answer. */
  readonly pendingCount: number;
  readonly transport: Transport;
  /**
   * Whether a JSON array at the top level of a frame is taken apart as a JSON-RPC batch. When false, the
   * array is one invalid request, answered with a single -32600 (id null) and nothing in it runs: a
   * protocol on top that removed batches (MCP from 2025-06-18) switches this off. Read on every frame, so
   * it may change once the protocol version is known.
   */
  batches: boolean;
}
