import {
  type JsonRpcId,
  type JsonRpcMessage,
  type SendOptions,
  sleep,
  type Transport,
} from "@mcpkit/jsonrpc";
import type { Cassette } from "./cassette.js";
import { subscriptionIdOf } from "./exchanges.js";
import { firstDifference, type IgnorePath, shortJson } from "./json-difference.js";
import { LiveInbox } from "./live-inbox.js";

/** Options of {@link verifyCassette}. */
export interface VerifyOptions {
  /** How long to wait for each answer of the live server, in ms (default 10 000). */
  timeoutMs?: number;
  /** More keys whose values may differ (compared nowhere), beside the default volatile ones. */
  ignoreKeys?: readonly string[];
  /**
   * The send options of each message (an HTTP transport's modern request headers); the verifier knows
   * nothing of transports, so the caller who chose one says what its sends need.
   */
  sendOptions?: (message: JsonRpcMessage) => SendOptions | undefined;
  /** Stops the verification: the promise rejects with `signal.reason` (between messages and polls). */
  signal?: AbortSignal;
}

/** The first place where the live server answered differently from the recording. */
export interface Divergence {
  /** Index of the recorded event that differs. */
  event: number;
  /** The method of the request (or notification) concerned. */
  method: string;
  /** JSON path inside the message (`$.result.content[0].text`). */
  path: string;
  expected: unknown;
  got: unknown;
  /** One line: `tools/call #5 at $.result.content[0].text: expected "3", got "4"`. */
  message: string;
}

/** What {@link verifyCassette} found. */
export interface VerifyReport {
  ok: boolean;
  /** Recorded server messages compared with the live ones. */
  checked: number;
  divergence?: Divergence;
}

// Values a live server makes anew each time: never compared. Those marked opaque are also carried over:
// the live value replaces the recorded one wherever the client sends it later (an MRTR retry's
// requestState, a task's id, a page cursor).
const OPAQUE = new Set(["requestState", "taskId", "nextCursor"]);
const VOLATILE = new Set(["createdAt", "lastUpdatedAt", "recordedAt", "timestamp"]);
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

type Message = Record<string, unknown>;

/**
 * Plays the client side of `cassette` against a live server on `transport` and reports the first
 * divergence: each recorded client message is sent in order (MRTR retries with the live `requestState`,
 * task polls with the live task id, answers to server-to-client requests with the live request's id),
 * and each recorded server answer is awaited and compared; a `tasks/get` recorded as finished is polled
 * again until the live task finishes. Listen-stream notifications are compared; other notifications
 * (logging, progress, legacy `list_changed`) are not, since a server may send them at any moment.
 * Values that differ by nature (`requestState`, task ids, cursors, timestamps) are not compared.
 * The transport is started here and closed before the promise settles.
 */
export async function verifyCassette(
  cassette: Cassette,
  transport: Transport,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const signal = options.signal ?? new AbortController().signal;
  const extra = new Set(options.ignoreKeys ?? []);
  const ignore: IgnorePath = (_path, key) => OPAQUE.has(key) || VOLATILE.has(key) || extra.has(key);
  const inbox = new LiveInbox(transport, options.sendOptions);
  const carried = new Map<string, string>();
  const serverRequestIds = new Map<string, JsonRpcId>();
  const sent = new Map<string, Message>();
  let checked = 0;
  const diverge = (
    event: number,
    method: string,
    path: string,
    expected: unknown,
    got: unknown,
  ): VerifyReport => {
    const message = `${method} (events[${event}]) at ${path}: expected ${shortJson(expected)}, got ${shortJson(got)}`;
    return { ok: false, checked, divergence: { event, method, path, expected, got, message } };
  };
  try {
    await inbox.start();
    for (const [i, event] of cassette.events.entries()) {
      signal.throwIfAborted();
      const recorded = event.message as unknown as Message;
      if (event.from === "client") {
        const outgoing = carry(structuredClone(recorded), carried) as Message;
        if (typeof outgoing.method !== "string") {
          const live = serverRequestIds.get(JSON.stringify(recorded.id));
          if (live !== undefined) outgoing.id = live;
        } else if (outgoing.id !== undefined) sent.set(JSON.stringify(outgoing.id), outgoing);
        await inbox.send(outgoing as unknown as JsonRpcMessage);
        continue;
      }
      const method = typeof recorded.method === "string" ? recorded.method : undefined;
      if (method === undefined) {
        const request = sent.get(JSON.stringify(recorded.id));
        const name = String(request?.method ?? "response");
        let got = await inbox.response(recorded.id as JsonRpcId, timeoutMs);
        if (got === undefined) return diverge(i, name, "$", recorded, `no answer within ${timeoutMs} ms`);
        // A poll recorded as finished: poll the live task until it finishes too.
        const deadline = Date.now() + timeoutMs;
        while (
          name === "tasks/get" &&
          request &&
          finished(recorded) &&
          !finished(got) &&
          Date.now() < deadline
        ) {
          await sleep(pollInterval(got), signal);
          await inbox.send(request as unknown as JsonRpcMessage);
          got = await inbox.response(recorded.id as JsonRpcId, timeoutMs);
          if (got === undefined) return diverge(i, name, "$", recorded, `no answer within ${timeoutMs} ms`);
        }
        checked++;
        // A poll recorded while working may find the live task already further on: not a divergence.
        if (name === "tasks/get" && !finished(recorded)) continue;
        const d = firstDifference(recorded, got, (path, key) => path === "$.id" || ignore(path, key));
        if (d) return diverge(i, name, d.path, d.expected, d.got);
        learn(recorded, got, carried);
        continue;
      }
      if (recorded.id !== undefined) {
        const got = await inbox.serverRequest(method, timeoutMs);
        if (got === undefined)
          return diverge(i, method, "$", recorded, `no ${method} request within ${timeoutMs} ms`);
        checked++;
        const d = firstDifference(recorded, got, (path, key) => path === "$.id" || ignore(path, key));
        if (d) return diverge(i, method, d.path, d.expected, d.got);
        serverRequestIds.set(JSON.stringify(recorded.id), got.id as JsonRpcId);
        continue;
      }
      const subscription = subscriptionIdOf(recorded);
      if (subscription === undefined && method !== "notifications/subscriptions/acknowledged") continue;
      const got = await inbox.notification(method, subscription, timeoutMs);
      if (got === undefined) return diverge(i, method, "$", recorded, `no ${method} within ${timeoutMs} ms`);
      checked++;
      const d = firstDifference(recorded, got, ignore);
      if (d) return diverge(i, method, d.path, d.expected, d.got);
    }
    return { ok: true, checked };
  } finally {
    await transport.close().catch(() => {});
  }
}

function finished(message: Message): boolean {
  const result = message.result as { status?: unknown } | undefined;
  return result === undefined || typeof result.status !== "string" || TERMINAL.has(result.status);
}

function pollInterval(message: Message): number {
  const interval = (message.result as { pollIntervalMs?: unknown } | undefined)?.pollIntervalMs;
  return typeof interval === "number" && interval >= 0 ? Math.min(interval, 1000) : 50;
}

/** Records recorded → live for the opaque values of an answer. */
function learn(recorded: unknown, live: unknown, carried: Map<string, string>): void {
  if (recorded === null || typeof recorded !== "object" || live === null || typeof live !== "object") return;
  for (const [key, value] of Object.entries(recorded)) {
    const other = (live as Record<string, unknown>)[key];
    if (OPAQUE.has(key) && typeof value === "string" && typeof other === "string") carried.set(value, other);
    else learn(value, other, carried);
  }
}

/** `value` with every recorded opaque string replaced by its live counterpart. */
function carry(value: unknown, carried: Map<string, string>): unknown {
  if (typeof value === "string") return carried.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => carry(v, carried));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = carry(child, carried);
  return out;
}
