import { TimeoutError } from "./errors.js";
import type { JsonRpcId } from "./messages.js";
import type { OutboundWatch } from "./peer-observer.js";
import type { ProgressParams } from "./peer-types.js";

// setTimeout overflows past 2^31-1 ms and fires at once; treat such delays as "never".
const MAX_TIMER = 2_147_483_647;

function noop(): void {}

/** What the peer knows of one request it sent, from the send until its answer (or its end otherwise). */
export interface PendingRequest {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: ReturnType<typeof setTimeout> | undefined;
  onProgress: ((p: ProgressParams) => void) | undefined;
  timeout: number;
  maxTotal: number;
  deadline: number;
  resetOnProgress: boolean;
  /** Closes the request's own stream (transports with a stream per request). */
  controller: AbortController | undefined;
  /** Detaches the listener on the caller's signal. */
  cleanup: () => void;
  watch: OutboundWatch | undefined;
}

/** How one request is tracked: everything but its timer and listener, which the tracker owns. */
export type PendingInit = Omit<PendingRequest, "timer" | "cleanup" | "deadline">;

/**
 * The peer's outbound requests in flight, by id: their timeouts (reset on progress, bounded in total),
 * the caller's abort, progress routing, and settling each exactly once. A request that times out or is
 * aborted is handed to `onAbandon` after it was settled, so the peer can tell the other side (cancel,
 * close its stream). It does NOT send anything itself.
 */
export class PendingRequests {
  readonly #map = new Map<JsonRpcId, PendingRequest>();
  readonly #onAbandon: (id: JsonRpcId, reason: unknown, entry: PendingRequest) => void;

  constructor(onAbandon: (id: JsonRpcId, reason: unknown, entry: PendingRequest) => void) {
    this.#onAbandon = onAbandon;
  }

  /** How many requests are in flight. */
  get size(): number {
    return this.#map.size;
  }

  /** Whether `id` is in flight. */
  has(id: JsonRpcId): boolean {
    return this.#map.has(id);
  }

  /** Tracks the request `id` from now on: arms its timer and listens to `signal`. */
  track(id: JsonRpcId, init: PendingInit, signal: AbortSignal | undefined): PendingRequest {
    const entry = init as PendingRequest;
    entry.timer = undefined;
    entry.cleanup = noop;
    entry.deadline = Date.now() + init.maxTotal;
    this.#map.set(id, entry);
    if (signal) {
      const onAbort = () => {
        const reason = signal.reason;
        if (this.settle(id, entry, undefined, reason)) this.#onAbandon(id, reason, entry);
      };
      entry.cleanup = () => signal.removeEventListener("abort", onAbort);
      signal.addEventListener("abort", onAbort, { once: true });
    }
    this.#arm(id, entry);
    return entry;
  }

  /** Settles `id` with its answer (`error` set: rejects). False when no such request is in flight. */
  answer(id: JsonRpcId, value: unknown, error?: unknown): boolean {
    const entry = this.#map.get(id);
    if (entry === undefined) return false;
    this.settle(id, entry, value, error);
    return true;
  }

  /** Routes a progress notification to its request, restarting its timeout when it asks for that. */
  progress(token: JsonRpcId, params: ProgressParams, onError: (error: Error) => void): void {
    const entry = this.#map.get(token);
    if (!entry?.onProgress) return;
    if (entry.resetOnProgress) this.#arm(token, entry);
    try {
      entry.onProgress(params);
    } catch (error) {
      onError(error as Error);
    }
  }

  /**
   * Settles `entry` once: true when this call did, false when it was settled before (or replaced).
   * Clears its timer and listener and ends its telemetry watch.
   */
  settle(id: JsonRpcId, entry: PendingRequest, value: unknown, error?: unknown): boolean {
    const map = this.#map;
    if (map.get(id) !== entry) return false;
    map.delete(id);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.cleanup();
    entry.watch?.end(value, error);
    if (error === undefined) entry.resolve(value);
    else entry.reject(error);
    return true;
  }

  /** Rejects every request in flight with `error` (the connection closed). */
  failAll(error: Error): void {
    for (const [id, entry] of this.#map) this.settle(id, entry, undefined, error);
  }

  #arm(id: JsonRpcId, entry: PendingRequest): void {
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    const now = Date.now();
    const wait = Math.min(entry.timeout, entry.deadline - now);
    if (!Number.isFinite(wait) || wait > MAX_TIMER) {
      entry.timer = undefined;
      return;
    }
    // Which bound fires decides the message: the per-request timeout, or the total despite progress.
    const total = entry.deadline - now <= entry.timeout;
    entry.timer = setTimeout(() => this.#timedOut(id, entry, total), Math.max(0, wait));
  }

  #timedOut(id: JsonRpcId, entry: PendingRequest, total: boolean): void {
    const limit = total ? entry.maxTotal : entry.timeout;
    const error = new TimeoutError(
      total
        ? `Request ${String(id)} exceeded its total timeout of ${limit} ms (progress kept it alive until then)`
        : `Request ${String(id)} timed out after ${limit} ms`,
      limit,
    );
    if (this.settle(id, entry, undefined, error)) this.#onAbandon(id, error, entry);
  }
}
