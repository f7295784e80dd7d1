import type { JsonRpcId } from "@mcpkit/jsonrpc";
import type { Lock } from "./internal/lock.js";
import { envelopeLink } from "./links/envelope-link.js";
import { type InputRoundsOptions, inputRoundsLink } from "./links/input-rounds-link.js";
import { type ClientLink, compose, fromClientLink, type Link, type Next, Outbound } from "./links/link.js";
import { sendOnPeer } from "./links/peer-link.js";
import { type RetryHooks, retryLink } from "./links/retry-link.js";
import { telemetryLink } from "./links/telemetry-link.js";
import { timeoutLink } from "./links/timeout-link.js";
import { turnLink } from "./links/turn-link.js";
import type { CallOptions } from "./options.js";
import type { RequestConfig } from "./request-config.js";
import type { RequestEnvelope } from "./request-envelope.js";
import type { Session } from "./session.js";

/** The parts of the chain, each made by the client before it. */
export interface RequestChainParts {
  /** The session-wide timing (`requestTimeout`, `maxTotalTimeout`, `resetTimeoutOnProgress`). */
  readonly requestConfig: RequestConfig;
  readonly envelope: RequestEnvelope;
  /** The turn of `serialize: true`; absent, requests run concurrently and no turn link is made. */
  readonly lock: Lock | undefined;
  readonly retry: RetryHooks;
  readonly rounds: InputRoundsOptions;
  /** The app's links (`createClient({ links })`), outermost first. */
  readonly links?: readonly ClientLink[] | undefined;
}

/**
 * The client's request path: every request after the handshake goes down one chain of small links,
 * outermost first —
 *
 * telemetry (the call's token) → MRTR rounds → the app's links → retries (expired session, dropped
 * version, header mismatch) → the turn (`serialize`) → the envelope (`_meta` and every header) →
 * timeouts → the peer.
 *
 * Each link owns one concern and one field of the {@link Outbound} it passes down.
 */
export class RequestChain {
  /** Sends `op` down the whole chain and resolves with its result. */
  readonly send: Next;

  constructor(parts: RequestChainParts) {
    const links: Link[] = [telemetryLink, inputRoundsLink(parts.rounds)];
    for (const link of parts.links ?? []) links.push(fromClientLink(link));
    links.push(retryLink(parts.retry));
    if (parts.lock !== undefined) links.push(turnLink(parts.lock));
    links.push(envelopeLink(parts.envelope), timeoutLink(parts.requestConfig));
    this.send = compose(links, sendOnPeer);
  }

  /**
   * Sends `method` on `session` and resolves with its result.
   * @param onId told the request's id before it leaves (a listen stream keys its notifications by it).
   */
  request(
    session: Session,
    method: string,
    params: Record<string, unknown> | undefined,
    call: CallOptions | undefined,
    onId?: (id: JsonRpcId) => void,
  ): Promise<unknown> {
    const op = new Outbound(session, method, params, call);
    if (onId !== undefined) op.onId = onId;
    return this.send(op);
  }
}
