import {
  ConnectionClosedError,
  ErrorCode,
  FramingError,
  JsonRpcError,
  type JsonRpcErrorObject,
  TimeoutError,
  TransportError,
} from "./errors.js";
import { Inbound } from "./inbound-request.js";
import { recoverIdFromHead } from "./line-framer.js";
import {
  classifyMessage,
  classifyValue,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type ParsedMessage,
} from "./messages.js";
import type { OutboundWatch, PeerObserver } from "./peer-observer.js";
import type {
  NotificationContext,
  NotificationHandler,
  NotifyOptions,
  Params,
  Peer,
  PeerOptions,
  ProgressParams,
  RequestHandler,
  RequestOptions,
} from "./peer-types.js";
import type { MessageInfo, SendOptions, Transport } from "./transport.js";

/** 60 s: the default timeout of a request. */
export const DEFAULT_REQUEST_TIMEOUT = 60_000;

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: ReturnType<typeof setTimeout> | undefined;
  onProgress: ((p: ProgressParams) => void) | undefined;
  timeout: number;
  maxTotal: number;
  deadline: number;
  resetOnProgress: boolean;
  controller: AbortController | undefined;
  cleanup: () => void;
  watch: OutboundWatch | undefined;
}

function checkTimeout(name: string, value: number): void {
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
    throw new RangeError(
      `${name} must be a positive number of milliseconds or Infinity, got ${String(value)}`,
    );
  }
}

const NO_OPTIONS: RequestOptions = Object.freeze({});
function noop(): void {}

// setTimeout overflows past 2^31-1 ms and fires at once; treat such delays as "never".
const MAX_TIMER = 2_147_483_647;

/**
 * Creates a {@link Peer} over a transport. Nothing happens until {@link Peer.start}.
 *
 * Ids are increasing integers (prefixed strings with `requestIdPrefix`), never reused. Inbound requests
 * run concurrently; a handler's unexpected throw is answered -32603 "Internal error" with no detail (the detail goes to
 * `onError`). Unknown methods get -32601, malformed requests with an id -32600, unparsable JSON
 * -32700 with id null.
 *
 * The peer is a class instance (its methods live on the prototype, so a peer per HTTP request stays
 * cheap): call them on the peer, or bind them before handing them on.
 */
export function createPeer(transport: Transport, options: PeerOptions = {}): Peer {
  return new JsonRpcPeer(transport, options);
}

class JsonRpcPeer implements Peer {
  readonly closed: Promise<Error | undefined>;
  private readonly defaultTimeout: number;
  private readonly concurrency: number;
  private readonly cancelMethod: string | null;
  private readonly progressMethod: string | null;
  private readonly reportError: (error: Error) => void;
  private readonly observer: PeerObserver | undefined;
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private anyRequest: RequestHandler | undefined;
  private anyNotification: NotificationHandler | undefined;
  private readonly pending = new Map<JsonRpcId, Pending>();
  private readonly inbound = new Map<JsonRpcId, Inbound>();
  private nextId = 1;
  batches: boolean;
  private started = false;
  private closedFlag = false;
  private closeReason: Error | undefined;
  private resolveClosed!: (reason: Error | undefined) => void;
  // Concurrency gate (only used when concurrency is finite).
  private active = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(
    readonly transport: Transport,
    private readonly options: PeerOptions,
  ) {
    this.defaultTimeout = options.timeout ?? DEFAULT_REQUEST_TIMEOUT;
    checkTimeout("timeout", this.defaultTimeout);
    if (options.maxTotalTimeout !== undefined) checkTimeout("maxTotalTimeout", options.maxTotalTimeout);
    this.concurrency = options.concurrency ?? Number.POSITIVE_INFINITY;
    if (!(this.concurrency >= 1)) {
      throw new RangeError(`concurrency must be at least 1, got ${String(this.concurrency)}`);
    }
    this.cancelMethod = options.cancelMethod === undefined ? "notifications/cancelled" : options.cancelMethod;
    this.progressMethod =
      options.progressMethod === undefined ? "notifications/progress" : options.progressMethod;
    this.reportError = options.onError ?? noop;
    this.batches = options.batches ?? true;
    this.observer = options.observer;
    this.closed = new Promise<Error | undefined>((r) => {
      this.resolveClosed = r;
    });
  }

  get isClosed(): boolean {
    return this.closedFlag;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  private release(): void {
    this.active--;
    const next = this.waiters.shift();
    if (next) {
      this.active++;
      next();
    }
  }

  private send(message: JsonRpcMessage, relatedRequestId?: JsonRpcId): Promise<void> {
    return relatedRequestId === undefined
      ? this.transport.send(message)
      : this.transport.send(message, { relatedRequestId });
  }

  private closedError(): Error {
    return this.closeReason ?? new ConnectionClosedError();
  }

  private sendCancel(id: JsonRpcId, reason: unknown): void {
    if (this.transport.traits.perRequestStream || !this.cancelMethod || this.closedFlag) return;
    const text = reason instanceof Error ? reason.message : typeof reason === "string" ? reason : undefined;
    const params: Record<string, unknown> = { requestId: id };
    if (text) params.reason = text;
    const method = this.cancelMethod;
    const sent =
      this.observer === undefined ? params : (this.observer.notificationOut(method, params) ?? params);
    this.send({ jsonrpc: "2.0", method, params: sent }).catch(this.reportError);
  }

  private armTimer(id: JsonRpcId, entry: Pending): void {
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    const now = Date.now();
    const wait = Math.min(entry.timeout, entry.deadline - now);
    if (!Number.isFinite(wait) || wait > MAX_TIMER) {
      entry.timer = undefined;
      return;
    }
    // Which bound fires decides the message: the per-request timeout, or the total despite progress.
    const total = entry.deadline - now <= entry.timeout;
    entry.timer = setTimeout(() => this.timedOut(id, entry, total), Math.max(0, wait));
  }

  private timedOut(id: JsonRpcId, entry: Pending, total: boolean): void {
    const limit = total ? entry.maxTotal : entry.timeout;
    const error = new TimeoutError(
      total
        ? `Request ${String(id)} exceeded its total timeout of ${limit} ms (progress kept it alive until then)`
        : `Request ${String(id)} timed out after ${limit} ms`,
      limit,
    );
    this.settle(id, entry, undefined, error);
    this.sendCancel(id, error);
    entry.controller?.abort(error);
  }

  private settle(id: JsonRpcId, entry: Pending, value: unknown, error?: unknown): void {
    const pending = this.pending;
    if (pending.get(id) !== entry) return;
    pending.delete(id);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.cleanup();
    entry.watch?.end(value, error);
    if (error === undefined) entry.resolve(value);
    else entry.reject(error);
  }

  // Not async: a request that can go at once costs one promise (issue's), not two.
  request(method: string, params?: Params, opts: RequestOptions = NO_OPTIONS): Promise<unknown> {
    let timeout: number;
    let maxTotal: number;
    try {
      if (!this.started) throw new Error(`Peer.request("${method}") before start(): call peer.start() first`);
      if (this.closedFlag) throw this.closedError();
      timeout = opts.timeout ?? this.defaultTimeout;
      checkTimeout("timeout", timeout);
      maxTotal = opts.maxTotalTimeout ?? this.options.maxTotalTimeout ?? timeout * 10;
      checkTimeout("maxTotalTimeout", maxTotal);
      opts.signal?.throwIfAborted();
    } catch (error) {
      return Promise.reject(error);
    }
    if (Number.isFinite(this.concurrency)) return this.gated(method, params, opts, timeout, maxTotal);
    return this.issue(method, params, opts, timeout, maxTotal);
  }

  private async gated(
    method: string,
    params: Params,
    opts: RequestOptions,
    timeout: number,
    maxTotal: number,
  ): Promise<unknown> {
    const signal = opts.signal;
    if (this.active >= this.concurrency) {
      const waiters = this.waiters;
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = waiters.indexOf(go);
          if (i >= 0) waiters.splice(i, 1);
          reject(signal!.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        waiters.push(go);
      });
      if (this.closedFlag) {
        this.release();
        throw this.closedError();
      }
    } else {
      this.active++;
    }
    try {
      return await this.issue(method, params, opts, timeout, maxTotal);
    } finally {
      this.release();
    }
  }

  private issue(
    method: string,
    params: Params,
    opts: RequestOptions,
    timeout: number,
    maxTotal: number,
  ): Promise<unknown> {
    const prefix = this.options.requestIdPrefix;
    const id: JsonRpcId = prefix === undefined ? this.nextId++ : prefix + this.nextId++;
    let outParams = params;
    const watch = this.observer?.requestOut(method, params, id, opts.operation);
    if (watch !== undefined) outParams = watch.params;
    if (opts.onProgress && this.progressMethod) {
      const base = (outParams && !Array.isArray(outParams) ? outParams : {}) as Record<string, unknown>;
      const meta = (base._meta ?? {}) as Record<string, unknown>;
      const withToken = Object.assign({}, meta);
      withToken.progressToken = id;
      const copy = Object.assign({}, base);
      copy._meta = withToken;
      outParams = copy;
    }
    const message: JsonRpcRequest =
      outParams === undefined
        ? { jsonrpc: "2.0", id, method }
        : { jsonrpc: "2.0", id, method, params: outParams };
    // Only a transport with a stream per request needs a signal to close it; elsewhere the cancel
    // notification does the job, and an AbortController per call is measurable on the hot path.
    const controller = this.transport.traits.perRequestStream ? new AbortController() : undefined;
    const signal = opts.signal;
    return new Promise<unknown>((resolve, reject) => {
      const entry: Pending = {
        resolve,
        reject,
        timer: undefined,
        onProgress: opts.onProgress,
        timeout,
        maxTotal,
        deadline: Date.now() + maxTotal,
        resetOnProgress: opts.resetTimeoutOnProgress ?? this.options.resetTimeoutOnProgress ?? true,
        controller,
        cleanup: noop,
        watch,
      };
      this.pending.set(id, entry);
      if (signal) {
        const onAbort = () => {
          const reason = signal.reason;
          this.settle(id, entry, undefined, reason);
          this.sendCancel(id, reason);
          controller?.abort(reason);
        };
        entry.cleanup = () => signal.removeEventListener("abort", onAbort);
        signal.addEventListener("abort", onAbort, { once: true });
      }
      this.armTimer(id, entry);
      // One shape for every options object (no per-case literal), and none at all when nothing goes down.
      let sendOptions: SendOptions | undefined;
      const related = opts.relatedRequestId;
      const headers = opts.headers;
      if (controller !== undefined || related !== undefined || headers !== undefined) {
        sendOptions = {};
        if (controller !== undefined) sendOptions.signal = controller.signal;
        if (related !== undefined) sendOptions.relatedRequestId = related;
        if (headers !== undefined) sendOptions.headers = headers;
      }
      let sent: Promise<void>;
      try {
        opts.onId?.(id);
        sent = this.transport.send(message, sendOptions);
      } catch (error) {
        sent = Promise.reject(error);
      }
      sent.catch((error: unknown) => {
        const failure =
          error instanceof ConnectionClosedError || error instanceof TransportError
            ? error
            : new TransportError(`Could not send ${method}`, { cause: error });
        this.settle(id, entry, undefined, this.closedFlag ? this.closedError() : failure);
      });
    });
  }

  async notify(method: string, params?: Params, opts?: NotifyOptions): Promise<void> {
    if (!this.started) throw new Error(`Peer.notify("${method}") before start(): call peer.start() first`);
    if (this.closedFlag) throw this.closedError();
    if (this.observer !== undefined) params = this.observer.notificationOut(method, params);
    const message: JsonRpcNotification =
      params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    await this.send(message, opts?.relatedRequestId);
  }

  private respondError(id: JsonRpcId | null, error: JsonRpcErrorObject, related?: JsonRpcId): void {
    if (this.closedFlag) return;
    this.send({ jsonrpc: "2.0", id, error }, related).catch(this.reportError);
  }

  private handleRequest(message: JsonRpcRequest, info: MessageInfo | undefined): void {
    const { id, method } = message;
    const handler = this.requestHandlers.get(method) ?? this.anyRequest;
    if (!handler) {
      this.respondError(id, { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` }, id);
      return;
    }
    if (this.inbound.has(id)) {
      this.respondError(
        id,
        { code: ErrorCode.InvalidRequest, message: "Duplicate request id in flight" },
        id,
      );
      return;
    }
    const entry = new Inbound(id, method, info, this);
    this.inbound.set(id, entry);
    let outcome: unknown;
    try {
      const observer = this.observer;
      if (observer === undefined) {
        outcome = handler(message.params, entry);
      } else {
        const watch = observer.requestIn(method, message.params, id, info);
        entry.watch = watch;
        outcome =
          watch === undefined ? handler(message.params, entry) : watch.run(handler, message.params, entry);
      }
    } catch (error) {
      this.finish(id, entry, undefined, error);
      return;
    }
    if (
      outcome !== null &&
      typeof outcome === "object" &&
      typeof (outcome as Promise<unknown>).then === "function"
    ) {
      (outcome as Promise<unknown>).then(
        (value) => this.finish(id, entry, value, undefined, true),
        (error: unknown) => this.finish(id, entry, undefined, error),
      );
    } else {
      this.finish(id, entry, outcome, undefined, true);
    }
  }

  private finish(id: JsonRpcId, entry: Inbound, value: unknown, error: unknown, ok = false): void {
    if (this.inbound.get(id) === entry) this.inbound.delete(id);
    entry.settle();
    const watch = entry.watch;
    // A cancelled request (by the peer, or by its response stream closing) gets no answer, and its
    // abort is not a failure to report; a closed peer can send nothing.
    if (entry.aborted || this.closedFlag) {
      watch?.end(undefined, undefined);
      return;
    }
    if (ok) {
      const result = value === undefined ? {} : value;
      watch?.end(result, undefined);
      this.send({ jsonrpc: "2.0", id, result }, id).catch(this.reportError);
      return;
    }
    if (error instanceof JsonRpcError) {
      const wire = error.toJSON();
      watch?.end(undefined, wire);
      this.respondError(id, wire, id);
      return;
    }
    this.reportError(error instanceof Error ? error : new Error(String(error)));
    const internal = { code: ErrorCode.InternalError, message: "Internal error" };
    watch?.end(undefined, internal);
    this.respondError(id, internal, id);
  }

  private handleNotification(message: JsonRpcNotification, info: MessageInfo | undefined): void {
    const { method } = message;
    const params = message.params as Record<string, unknown> | undefined;
    if (method === this.cancelMethod && params) {
      const entry = this.inbound.get(params.requestId as JsonRpcId);
      if (entry) {
        this.inbound.delete(params.requestId as JsonRpcId);
        entry.abort(new JsonRpcError(ErrorCode.InternalError, "Request cancelled by the peer"));
      }
    } else if (method === this.progressMethod && params) {
      const entry = this.pending.get(params.progressToken as JsonRpcId);
      if (entry?.onProgress) {
        if (entry.resetOnProgress) this.armTimer(params.progressToken as JsonRpcId, entry);
        try {
          entry.onProgress(params as ProgressParams);
        } catch (error) {
          this.reportError(error as Error);
        }
      }
    }
    const handler = this.notificationHandlers.get(method) ?? this.anyNotification;
    if (!handler) return;
    const watch = this.observer?.notificationIn(method, params, info);
    try {
      const context: NotificationContext = { method, info };
      const r = watch === undefined ? handler(params, context) : watch.run(handler, params, context);
      if (r && typeof (r as Promise<void>).then === "function") {
        const done = (r as Promise<void>).catch(this.reportError);
        if (watch !== undefined) done.then(() => watch.end(undefined, undefined));
        return;
      }
    } catch (error) {
      this.reportError(error as Error);
    }
    watch?.end(undefined, undefined);
  }

  private dispatch(parsed: ParsedMessage, info: MessageInfo | undefined): void {
    switch (parsed.kind) {
      case "request":
        this.handleRequest(parsed.message, info);
        return;
      case "notification":
        this.handleNotification(parsed.message, info);
        return;
      case "success":
      case "error": {
        const { id } = parsed.message;
        const entry = id === null ? undefined : this.pending.get(id);
        if (!entry) {
          this.reportError(new Error(`Response to an unknown or finished request id ${JSON.stringify(id)}`));
          return;
        }
        if (parsed.kind === "success") this.settle(id!, entry, parsed.message.result);
        else this.settle(id!, entry, undefined, JsonRpcError.fromWire(parsed.message.error));
        return;
      }
      case "invalid":
        this.respondError(parsed.id, parsed.error);
        return;
    }
  }

  private shutdown(reason: Error | undefined): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.closeReason = reason;
    // An Error captures a stack trace, which costs more than the rest of a close: made only when someone
    // is there to receive it (a connection per HTTP request closes this way every time).
    if (this.pending.size > 0 || this.inbound.size > 0) {
      const error = this.closedError();
      for (const [id, entry] of this.pending) this.settle(id, entry, undefined, error);
      for (const entry of this.inbound.values()) entry.abort(error);
      this.inbound.clear();
    }
    for (const waiter of this.waiters.splice(0)) waiter();
    try {
      this.options.onClose?.(reason);
    } finally {
      this.resolveClosed(reason);
    }
  }

  private onInvalid(error: Error): void {
    if (error instanceof FramingError) {
      const id = recoverIdFromHead(error.head);
      const isRequest = error.head !== undefined && /"method"\s*:/.test(error.head);
      if (isRequest && id !== null) {
        this.respondError(id, {
          code: ErrorCode.InvalidRequest,
          message: `Invalid Request: ${error.message}`,
        });
      } else if (id !== null && this.pending.has(id)) {
        // The answer to one of our requests was too large: fail that request, not the connection.
        this.settle(id, this.pending.get(id)!, undefined, error);
      } else {
        this.reportError(error);
      }
      return;
    }
    this.respondError(null, { code: ErrorCode.ParseError, message: "Parse error" });
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("Peer.start() was called twice");
    this.started = true;
    await this.transport.start({
      onMessage: (value, info) => {
        // Fast path for the common case: one object, not a batch.
        if (!Array.isArray(value)) {
          this.dispatch(classifyMessage(value), info);
          return;
        }
        if (!this.batches) {
          this.respondError(null, {
            code: ErrorCode.InvalidRequest,
            message: "Invalid Request: JSON-RPC batches are not supported",
          });
          return;
        }
        for (const parsed of classifyValue(value)) this.dispatch(parsed, info);
      },
      onInvalid: (error) => this.onInvalid(error),
      onClose: (reason) => this.shutdown(reason),
    });
  }

  onRequest(method: string, handler: RequestHandler): () => void {
    this.requestHandlers.set(method, handler);
    return () => {
      if (this.requestHandlers.get(method) === handler) this.requestHandlers.delete(method);
    };
  }

  onAnyRequest(handler: RequestHandler | undefined): void {
    this.anyRequest = handler;
  }

  onNotification(method: string, handler: NotificationHandler): () => void {
    this.notificationHandlers.set(method, handler);
    return () => {
      if (this.notificationHandlers.get(method) === handler) this.notificationHandlers.delete(method);
    };
  }

  onAnyNotification(handler: NotificationHandler | undefined): void {
    this.anyNotification = handler;
  }

  async close(reason?: Error): Promise<void> {
    if (this.closedFlag) return;
    this.shutdown(reason);
    await this.transport.close(reason).catch(this.reportError);
  }
}
