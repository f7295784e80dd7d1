import { ConcurrencyGate } from "./concurrency-gate.js";
import {
  ConnectionClosedError,
  ErrorCode,
  FramingError,
  JsonRpcError,
  type JsonRpcErrorObject,
} from "./errors.js";
import { HandlerTable } from "./handler-table.js";
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
import {
  cancelParams,
  checkTimeout,
  DEFAULT_REQUEST_TIMEOUT,
  requestMessage,
  requestSendOptions,
  sendFailure,
} from "./outbound-request.js";
import type { PeerObserver } from "./peer-observer.js";
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
import { PendingRequests } from "./pending-requests.js";
import type { MessageInfo, Transport } from "./transport.js";

const NO_OPTIONS: RequestOptions = Object.freeze({});
function noop(): void {}

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
  private readonly cancelMethod: string | null;
  private readonly progressMethod: string | null;
  private readonly reportError: (error: Error) => void;
  private readonly observer: PeerObserver | undefined;
  private readonly requestHandlers = new HandlerTable<RequestHandler>();
  private readonly notificationHandlers = new HandlerTable<NotificationHandler>();
  private readonly pending: PendingRequests;
  private readonly inbound = new Map<JsonRpcId, Inbound>();
  private nextId = 1;
  batches: boolean;
  private started = false;
  private closedFlag = false;
  private closeReason: Error | undefined;
  private resolveClosed!: (reason: Error | undefined) => void;
  // Only when concurrency is finite.
  private readonly gate: ConcurrencyGate | undefined;

  constructor(
    readonly transport: Transport,
    private readonly options: PeerOptions,
  ) {
    this.defaultTimeout = options.timeout ?? DEFAULT_REQUEST_TIMEOUT;
    checkTimeout("timeout", this.defaultTimeout);
    if (options.maxTotalTimeout !== undefined) checkTimeout("maxTotalTimeout", options.maxTotalTimeout);
    const concurrency = options.concurrency ?? Number.POSITIVE_INFINITY;
    if (!(concurrency >= 1)) {
      throw new RangeError(`concurrency must be at least 1, got ${String(concurrency)}`);
    }
    this.gate = Number.isFinite(concurrency) ? new ConcurrencyGate(concurrency) : undefined;
    this.cancelMethod = options.cancelMethod === undefined ? "notifications/cancelled" : options.cancelMethod;
    this.progressMethod =
      options.progressMethod === undefined ? "notifications/progress" : options.progressMethod;
    this.reportError = options.onError ?? noop;
    this.batches = options.batches ?? true;
    this.observer = options.observer;
    // A request given up (timeout, caller's abort): tell the other side, and close its own stream.
    this.pending = new PendingRequests((id, reason, entry) => {
      this.sendCancel(id, reason);
      entry.controller?.abort(reason);
    });
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
    const params = cancelParams(id, reason);
    const method = this.cancelMethod;
    const sent =
      this.observer === undefined ? params : (this.observer.notificationOut(method, params) ?? params);
    this.send({ jsonrpc: "2.0", method, params: sent }).catch(this.reportError);
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
    const gate = this.gate;
    if (gate !== undefined) return this.gated(gate, method, params, opts, timeout, maxTotal);
    return this.issue(method, params, opts, timeout, maxTotal);
  }

  private async gated(
    gate: ConcurrencyGate,
    method: string,
    params: Params,
    opts: RequestOptions,
    timeout: number,
    maxTotal: number,
  ): Promise<unknown> {
    await gate.enter(opts.signal);
    try {
      if (this.closedFlag) throw this.closedError();
      return await this.issue(method, params, opts, timeout, maxTotal);
    } finally {
      gate.leave();
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
    const watch = this.observer?.requestOut(method, params, id, opts.operation);
    const message = requestMessage(
      id,
      method,
      watch === undefined ? params : watch.params,
      opts.onProgress !== undefined && this.progressMethod !== null,
    );
    // Only a transport with a stream per request needs a signal to close it; elsewhere the cancel
    // notification does the job, and an AbortController per call is measurable on the hot path.
    const controller = this.transport.traits.perRequestStream ? new AbortController() : undefined;
    const signal = opts.signal;
    return new Promise<unknown>((resolve, reject) => {
      const entry = this.pending.track(
        id,
        {
          resolve,
          reject,
          onProgress: opts.onProgress,
          timeout,
          maxTotal,
          resetOnProgress: opts.resetTimeoutOnProgress ?? this.options.resetTimeoutOnProgress ?? true,
          controller,
          watch,
        },
        signal,
      );
      const sendOptions = requestSendOptions(controller, opts);
      let sent: Promise<void>;
      try {
        opts.onId?.(id);
        sent = this.transport.send(message, sendOptions);
      } catch (error) {
        sent = Promise.reject(error);
      }
      sent.catch((error: unknown) => {
        const failure = this.closedFlag ? this.closedError() : sendFailure(method, error);
        this.pending.settle(id, entry, undefined, failure);
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
    const handler = this.requestHandlers.find(method);
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
      this.pending.progress(params.progressToken as JsonRpcId, params as ProgressParams, this.reportError);
    }
    const handler = this.notificationHandlers.find(method);
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
        const answered =
          id !== null &&
          (parsed.kind === "success"
            ? this.pending.answer(id, parsed.message.result)
            : this.pending.answer(id, undefined, JsonRpcError.fromWire(parsed.message.error)));
        if (!answered)
          this.reportError(new Error(`Response to an unknown or finished request id ${JSON.stringify(id)}`));
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
      this.pending.failAll(error);
      for (const entry of this.inbound.values()) entry.abort(error);
      this.inbound.clear();
    }
    this.gate?.openAll();
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
      } else if (id === null || !this.pending.answer(id, undefined, error)) {
        // Only an answer to one of our requests that was too large fails that request; the rest is reported.
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
    return this.requestHandlers.set(method, handler);
  }

  onAnyRequest(handler: RequestHandler | undefined): void {
    this.requestHandlers.any = handler;
  }

  onNotification(method: string, handler: NotificationHandler): () => void {
    return this.notificationHandlers.set(method, handler);
  }

  onAnyNotification(handler: NotificationHandler | undefined): void {
    this.notificationHandlers.any = handler;
  }

  async close(reason?: Error): Promise<void> {
    if (this.closedFlag) return;
    this.shutdown(reason);
    await this.transport.close(reason).catch(this.reportError);
  }
}
