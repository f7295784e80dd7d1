import {
  ErrorCode,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Transport,
} from "@mcpkit/jsonrpc";
import type { Cassette } from "./cassette.js";
import { type CassetteExchanges, indexExchanges, progressTokenOf, subscriptionIdOf } from "./exchanges.js";
import { differenceCount, firstDifference, type IgnorePath, shortJson } from "./json-difference.js";

/**
 * How {@link replayServer} matches an incoming request to a recorded one. `"exact"` compares the whole
 * message, id and `_meta` included, in recorded order.
 */
export type ReplayMatch =
  | "exact"
  | {
      /** Match whatever id the client uses (answers carry the client's id). Default true. */
      ignoreIds?: boolean;
      /** Leave `params._meta` (progress tokens, trace context, modern envelope) out. Default true. */
      ignoreMeta?: boolean;
      /**
       * Accept requests in any order: the first unanswered recorded request that matches answers. Default
       * false: the next unanswered recorded request must match.
       */
      ignoreOrder?: boolean;
    };

/** Options of {@link replayServer}. */
export interface ReplayOptions {
  match?: ReplayMatch;
}

/** What {@link ReplayServer.handle} is given with one request: where its notifications go. */
export interface ReplayRequestContext {
  /** Sends one notification of this request before its response (an HTTP response stream's event). */
  notify(message: JsonRpcNotification): void;
}

/**
 * A server that plays a cassette: connect it to a transport (or pass it to mcpkit's `connect()`), or
 * serve it with `createStreamableHttpHandler` / `listen` of `@mcpkit/transport-http`, which it fits.
 */
export interface ReplayServer {
  /**
   * Serves one connection on `transport`, from the start of the cassette (each connection replays it
   * anew). Resolves once the transport started.
   */
  connect(transport: Transport): Promise<void>;
  /**
   * Answers one modern (2026-07-28) request as a function call, as an HTTP handler calls a server: all
   * `handle` calls share one replay of the cassette (stateless HTTP has no connection to start anew).
   * A listen stream's request stays pending while its notifications go to `context.notify`.
   */
  handle(
    message: JsonRpcRequest | JsonRpcNotification,
    context: ReplayRequestContext,
  ): Promise<JsonRpcResponse | undefined>;
}

interface Rules {
  ignoreIds: boolean;
  ignoreMeta: boolean;
  ignoreOrder: boolean;
}

function rulesOf(match: ReplayMatch | undefined): Rules {
  if (match === "exact") return { ignoreIds: false, ignoreMeta: false, ignoreOrder: false };
  return {
    ignoreIds: match?.ignoreIds ?? true,
    ignoreMeta: match?.ignoreMeta ?? true,
    ignoreOrder: match?.ignoreOrder ?? false,
  };
}

function ignoreFor(rules: Rules): IgnorePath {
  return (path) => (rules.ignoreIds && path === "$.id") || (rules.ignoreMeta && path === "$.params._meta");
}

type Message = Record<string, unknown>;

/**
 * Serves `cassette` as the server it was recorded from, in its era: each request the client sends is
 * matched to a recorded one and answered with what the server answered then — the notifications that
 * belonged to it, its server-to-client requests (waiting for the client's answer), its MRTR rounds with
 * `requestState` verbatim, listen-stream notifications after the client message they followed. Ids,
 * progress tokens and subscription ids are mapped to the client's own.
 *
 * A request that matches nothing is answered at once with a JSON-RPC error (`-32601` when no recorded
 * request has its method, `-32602` otherwise) naming the nearest recorded request and the first
 * difference, with `{ nearest, path, expected, got }` as `data`: a replay never hangs on it.
 */
export function replayServer(cassette: Cassette, options: ReplayOptions = {}): ReplayServer {
  const rules = rulesOf(options.match);
  const exchanges = indexExchanges(cassette.events);
  // handle(): one shared replay; each pending request's answer and notifications routed by its id.
  const pending = new Map<string, { resolve(r: JsonRpcResponse): void; context: ReplayRequestContext }>();
  const shared = new ReplaySession(cassette, exchanges, rules, (message, ownerId) => {
    const waiting = ownerId === undefined ? undefined : pending.get(JSON.stringify(ownerId));
    if (waiting === undefined) return;
    if (typeof message.method === "string") waiting.context.notify(message as unknown as JsonRpcNotification);
    else {
      pending.delete(JSON.stringify(ownerId));
      waiting.resolve(message as unknown as JsonRpcResponse);
    }
  });
  return {
    async connect(transport) {
      const session = new ReplaySession(cassette, exchanges, rules, (message) => {
        transport.send(message as unknown as JsonRpcMessage).catch(() => {});
      });
      await transport.start({
        onMessage: (value) => session.receive(value),
        onInvalid: () => {},
        onClose: () => session.close(),
      });
      session.pump();
    },
    handle(message, context) {
      if (!("id" in message) || message.id === undefined) {
        shared.receive(message);
        return Promise.resolve(undefined);
      }
      const id = message.id;
      const answer = new Promise<JsonRpcResponse>((resolve) => {
        pending.set(JSON.stringify(id), { resolve, context });
      });
      shared.receive(message);
      return answer;
    },
  };
}

/** Sends one replayed message; `ownerId` is the live id of the request it belongs to. */
type Emit = (message: Message, ownerId: JsonRpcId | undefined) => void;

class ReplaySession {
  private readonly consumed = new Set<number>();
  private readonly emitted = new Set<number>();
  /** Recorded owner index → the live request's id and progress token. */
  private readonly live = new Map<number, { id: JsonRpcId; token: unknown }>();
  /** Owners matched so far, in match order. */
  private readonly matched: number[] = [];
  /** Server-to-client requests sent, by recorded id, whose answer has not come. */
  private readonly awaiting = new Set<string>();
  /** Requests answered with the cut-off error. */
  private readonly cutOff = new Set<number>();
  private closed = false;

  constructor(
    private readonly cassette: Cassette,
    private readonly exchanges: CassetteExchanges,
    private readonly rules: Rules,
    private readonly emit: Emit,
  ) {}

  close(): void {
    this.closed = true;
  }

  receive(value: unknown): void {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return;
    const message = value as Message;
    if (typeof message.method !== "string") this.answer(message);
    else if (message.id === undefined) this.notification(message);
    else this.request(message);
    this.pump();
  }

  private clientIndexes(test: (message: Message) => boolean): number[] {
    const out: number[] = [];
    this.cassette.events.forEach((event, i) => {
      if (event.from === "client" && !this.consumed.has(i) && test(event.message as unknown as Message))
        out.push(i);
    });
    return out;
  }

  private answer(message: Message): void {
    // The client answering one of our server-to-client requests (sent with the recorded id).
    const key = JSON.stringify(message.id);
    this.awaiting.delete(key);
    const [index] = this.clientIndexes((m) => typeof m.method !== "string" && JSON.stringify(m.id) === key);
    if (index !== undefined) this.take(index, message);
  }

  private notification(message: Message): void {
    const [index] = this.clientIndexes((m) => m.method === message.method && m.id === undefined);
    if (index !== undefined) this.take(index, message);
  }

  private request(message: Message): void {
    const ignore = ignoreFor(this.rules);
    const requests = this.clientIndexes((m) => typeof m.method === "string" && m.id !== undefined);
    const candidates = this.rules.ignoreOrder ? requests : requests.slice(0, 1);
    const hit = candidates.find(
      (i) => firstDifference(this.cassette.events[i]!.message, message, ignore) === undefined,
    );
    if (hit !== undefined) {
      this.take(hit, message);
      return;
    }
    this.refuse(message, requests, ignore);
  }

  private take(index: number, message: Message): void {
    this.consumed.add(index);
    if (typeof message.method === "string" && message.id !== undefined) {
      this.live.set(index, { id: message.id as JsonRpcId, token: progressTokenOf(message) });
    }
    this.matched.push(index);
  }

  private refuse(message: Message, requests: number[], ignore: IgnorePath): void {
    const events = this.cassette.events;
    const methodOf = (i: number) => (events[i]!.message as { method?: unknown }).method;
    const all: number[] = [];
    events.forEach((e, i) => {
      const m = e.message as { method?: unknown; id?: unknown };
      if (e.from === "client" && typeof m.method === "string" && m.id !== undefined) all.push(i);
    });
    // The nearest among the unanswered requests of the same method, else among those already answered,
    // else any unanswered one.
    const pools = [
      requests.filter((i) => methodOf(i) === message.method),
      all.filter((i) => methodOf(i) === message.method),
      requests,
    ];
    const pool = pools.find((p) => p.length > 0) ?? [];
    let nearest: number | undefined;
    let best = Number.POSITIVE_INFINITY;
    for (const i of pool) {
      const distance = differenceCount(events[i]!.message, message, ignore);
      if (distance < best) {
        best = distance;
        nearest = i;
      }
    }
    const code = pools[1]!.length > 0 ? ErrorCode.InvalidParams : ErrorCode.MethodNotFound;
    let text: string;
    let data: Record<string, unknown>;
    if (nearest === undefined) {
      text = `replay: ${String(message.method)} was not expected: every recorded request was answered`;
      data = {};
    } else {
      const recorded = events[nearest]!.message as unknown as Message;
      const d = firstDifference(recorded, message, ignore);
      const answered = this.consumed.has(nearest) ? " (already answered)" : "";
      const where = d
        ? `first difference at ${d.path}: expected ${shortJson(d.expected)}, got ${shortJson(d.got)}`
        : "it comes out of order";
      text =
        `replay: no recorded request matches ${String(message.method)}; nearest is events[${nearest}] ` +
        `${String(recorded.method)}${answered}, ${where}`;
      data = d
        ? { nearest, path: d.path, expected: d.expected ?? null, got: d.got ?? null }
        : { nearest, path: "$", expected: null, got: null };
    }
    this.send(
      { jsonrpc: "2.0", id: message.id, error: { code, message: text, data } },
      message.id as JsonRpcId,
    );
  }

  /** Sends every recorded server message whose time has come (see {@link replayServer}). */
  pump(): void {
    const events = this.cassette.events;
    const { owner, previousClient, response } = this.exchanges;
    for (const o of this.matched) {
      const end = response.get(o);
      let held = false;
      for (let j = o + 1; j < events.length; j++) {
        if (this.emitted.has(j) || owner[j] !== o || events[j]!.from !== "server") continue;
        // Up to the response the exchange plays at once; after it (a listen stream's notifications,
        // a list_changed), each message waits for the client message it followed in the recording.
        const beforeResponse = end !== undefined && j <= end;
        const prev = previousClient[j]!;
        held =
          (!beforeResponse && prev !== o && prev >= 0 && !this.consumed.has(prev)) ||
          this.awaitingBefore(o, j);
        if (held) break;
        this.emitted.add(j);
        this.send(this.mapped(events[j]!.message as unknown as Message, o), this.live.get(o)?.id);
        const m = events[j]!.message as unknown as Message;
        if (typeof m.method === "string" && m.id !== undefined) this.awaiting.add(JSON.stringify(m.id));
      }
      if (end === undefined && !held) this.answerCutOff(o);
    }
  }

  /**
   * A request the recording holds no answer to (it ended first) is answered with an error at once, so
   * the client never waits on it; a `subscriptions/listen` stays open, as it did.
   */
  private answerCutOff(o: number): void {
    const request = this.cassette.events[o]!.message as unknown as Message;
    const live = this.live.get(o);
    if (live === undefined || request.method === "subscriptions/listen" || this.cutOff.has(o)) return;
    this.cutOff.add(o);
    const message = `replay: the recording ends before the answer to events[${o}] ${String(request.method)}`;
    this.send({ jsonrpc: "2.0", id: live.id, error: { code: ErrorCode.InternalError, message } }, live.id);
  }

  private awaitingBefore(o: number, j: number): boolean {
    // A server-to-client request of this exchange not yet answered holds back what came after it.
    for (let k = o + 1; k < j; k++) {
      const m = this.cassette.events[k]!.message as unknown as Message;
      if (this.exchanges.owner[k] === o && typeof m.method === "string" && m.id !== undefined)
        if (this.awaiting.has(JSON.stringify(m.id))) return true;
    }
    return false;
  }

  private mapped(recorded: Message, o: number): Message {
    const copy = structuredClone(recorded);
    const live = this.live.get(o);
    if (live === undefined) return copy;
    const request = this.cassette.events[o]!.message as unknown as Message;
    if (typeof copy.method !== "string") copy.id = live.id;
    const params = copy.params as Record<string, unknown> | undefined;
    if (params) {
      const meta = params._meta as Record<string, unknown> | undefined;
      if (meta && subscriptionIdOf(copy) !== undefined && subscriptionIdOf(copy) === request.id)
        meta["io.modelcontextprotocol/subscriptionId"] = live.id;
      if (params.progressToken !== undefined && live.token !== undefined) params.progressToken = live.token;
      if (copy.method === "notifications/cancelled" && params.requestId === request.id)
        params.requestId = live.id;
    }
    const result = copy.result as Record<string, unknown> | undefined;
    const resultMeta = result?._meta as Record<string, unknown> | undefined;
    if (resultMeta !== undefined && resultMeta["io.modelcontextprotocol/subscriptionId"] === request.id)
      resultMeta["io.modelcontextprotocol/subscriptionId"] = live.id;
    return copy;
  }

  private send(message: Message, ownerId: JsonRpcId | undefined): void {
    if (!this.closed) this.emit(message, ownerId);
  }
}
