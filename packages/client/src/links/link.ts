import type { JsonRpcId, RequestOptions } from "@mcpkit/jsonrpc";
import type { ProtocolEra, Tool } from "@mcpkit/protocol";
import type { CallOptions } from "../options.js";
import type { Session } from "../session.js";

/**
 * One request as a link sees it on its way to the server: the method, the params as the app gave them
 * (before the client adds its modern `_meta`), the call's options, and the era and version of the session
 * it goes out on (read when asked: a retry below may change the version).
 */
export interface LinkRequest {
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  /** The call's options (timeout, signal, progress, extra `_meta`), as given to the client method. */
  readonly options: CallOptions | undefined;
  readonly era: ProtocolEra;
  readonly protocolVersion: string;
}

/** The rest of the chain below a link: sends `request` (the one received, or a changed copy) on down. */
export type LinkNext = (request: LinkRequest) => Promise<unknown>;

/**
 * A link of the client's request path (`createClient({ links })`), in the manner of tRPC's links: it gets
 * each request and the rest of the chain, and resolves with the result — by calling `next` (once, again
 * for a retry of its own, with a changed copy of the request) or not at all (a cache hit).
 *
 * A link sees every request the client sends after the handshake: each `input_required` round and each
 * task poll on its own. It sits above the client's own retries, its turn (`serialize`), the envelope and
 * the timeouts, so `next` rejects with what the app would see: `McpError`, `TimeoutError`,
 * `signal.reason`. A change to `params` must keep them a plain object; the client's `_meta` fields are
 * added below, and always win.
 */
export type ClientLink = (request: LinkRequest, next: LinkNext) => Promise<unknown>;

/** How a request that may take `input_required` rounds (MRTR) is run to its end. */
export interface RoundsPlan {
  /** Told of a modern complete answer the server gave at once (the only kind a cache may keep). */
  onDirect?: ((result: Record<string, unknown>) => void) | undefined;
  /** Hand a task answer back as it is (`startTool`) instead of awaiting it. */
  returnTask?: boolean;
}

/**
 * @internal One request on its way down the chain. The caller sets what it knows (the session, method,
 * params, options, and for `tools/call` the tool it already looked up); each link then sets the one field
 * it owns, afresh on every pass, so a retry from above recomputes everything below it.
 */
export class Outbound implements LinkRequest {
  readonly session: Session;
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  readonly options: CallOptions | undefined;
  /** `tools/call`: the tool of that name in the last list (its `x-mcp-header` annotations). */
  tool: Tool | undefined = undefined;
  /** `tools/call`: lists the tools again and gives the tool anew (after a header mismatch). */
  refreshTool: (() => Promise<Tool | undefined>) | undefined = undefined;
  /** Present when the request may take `input_required` rounds. */
  rounds: RoundsPlan | undefined = undefined;
  /** Told the request's id before it leaves (a listen stream keys its notifications by it). */
  onId: ((id: JsonRpcId) => void) | undefined = undefined;
  /** Shared by the requests of one call (its rounds, its task's polls): telemetry links them to the first. */
  operation: object | undefined = undefined;
  /** Set by the envelope link: the params as they go out, with the modern `_meta`. */
  wire: Record<string, unknown> | undefined = undefined;
  /** Set by the envelope link: the headers of the send, where the transport carries them. */
  headers: Readonly<Record<string, string>> | undefined = undefined;
  /** Set by the timeout link: the peer's timing options (shared when the call sets nothing). */
  timing: RequestOptions | undefined = undefined;

  constructor(
    session: Session,
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions | undefined,
  ) {
    this.session = session;
    this.method = method;
    this.params = params;
    this.options = options;
  }

  get era(): ProtocolEra {
    return this.session.era;
  }

  get protocolVersion(): string {
    return this.session.version;
  }

  /**
   * A copy with other params (an input round's retry, a link's change); what the caller set goes along,
   * and so do the method and options when `changes` leaves them out.
   */
  with(changes: Partial<Pick<LinkRequest, "method" | "params" | "options">>): Outbound {
    const copy = new Outbound(
      this.session,
      changes.method ?? this.method,
      changes.params,
      changes.options ?? this.options,
    );
    copy.tool = this.tool;
    copy.refreshTool = this.refreshTool;
    copy.rounds = this.rounds;
    copy.onId = this.onId;
    copy.operation = this.operation;
    return copy;
  }
}

/** @internal The rest of the chain below an internal link. */
export type Next = (op: Outbound) => Promise<unknown>;

/** @internal A link of the client's own: it may read and set the fields of {@link Outbound}. */
export type Link = (op: Outbound, next: Next) => Promise<unknown>;

/** @internal An app's {@link ClientLink} as a link of the chain: a changed request carries the rest along. */
export function fromClientLink(link: ClientLink): Link {
  return (op, next) => link(op, (request) => next(request === op ? op : op.with(request)));
}

/** @internal The links, outermost first, wrapped around `end`: one function that sends a request. */
export function compose(links: readonly Link[], end: Next): Next {
  let next = end;
  for (let i = links.length - 1; i >= 0; i--) {
    const link = links[i]!;
    const inner = next;
    next = (op) => link(op, inner);
  }
  return next;
}
