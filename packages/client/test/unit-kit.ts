// Builds the client's parts one at a time for the unit tests beside them in src/: a started Session over
// an in-memory pair to a hand-written responder, with default settings.
import type { Transport } from "@mcpkit/jsonrpc";
import { afterEach } from "vitest";
import type { InputRoundsOptions } from "../src/links/input-rounds-link.js";
import type { ClientLink } from "../src/links/link.js";
import type { RetryHooks } from "../src/links/retry-link.js";
import { type ClientOptions, resolveSettings } from "../src/options.js";
import { RequestChain } from "../src/request-chain.js";
import { RequestEnvelope } from "../src/request-envelope.js";
import { type Session, type SessionHooks, startSession } from "../src/session.js";
import { type Handler, type Responder, responder } from "./helpers.js";

export interface SessionKit {
  session: Session;
  server: Responder;
  notifications: Array<[string, Record<string, unknown>]>;
  close(): Promise<void>;
}

/** A started session speaking `era` to a responder with `handlers`. */
export async function sessionKit(
  handlers: Record<string, Handler>,
  options: {
    era?: "modern" | "legacy";
    client?: Partial<ClientOptions>;
    /** Present the client's end as a transport that carries headers (HTTP). */
    headers?: boolean;
  } = {},
): Promise<SessionKit> {
  const server = await responder(handlers, { perRequestStream: options.headers === true });
  const settings = resolveSettings({ name: "t", version: "1", ...options.client });
  const notifications: Array<[string, Record<string, unknown>]> = [];
  const hooks: SessionHooks = {
    settings,
    closing: () => false,
    onNotification: (_s, method, params) => notifications.push([method, params]),
  };
  const inner = server.transport;
  const transport: Transport = options.headers
    ? {
        traits: { perRequestStream: inner.traits.perRequestStream, perRequestHeaders: true },
        start: (sink) => inner.start(sink),
        send: (m, o) => inner.send(m, o),
        close: (r) => inner.close(r),
      }
    : inner;
  const session = await startSession(transport, hooks);
  const era = options.era ?? "modern";
  session.speak(era, era === "modern" ? "2026-07-28" : "2025-11-25");
  return {
    session,
    server,
    notifications,
    async close() {
      await session.close();
      await server.close();
    },
  };
}

/**
 * Registers an `afterEach` that closes every kit pushed to the returned list; call it at a test file's
 * top level.
 */
export function useSessionKits(): SessionKit[] {
  const kits: SessionKit[] = [];
  afterEach(async () => {
    for (const k of kits.splice(0)) await k.close();
  });
  return kits;
}

/** A source that always gives `session` (what the connection is to the parts that need the session). */
export function fixedSession(session: Session): { ensure(): Promise<Session> } {
  return { ensure: async () => session };
}

/**
 * A request chain with nothing of note: no request settings, the envelope of client "t" 1, no lock, a
 * client that is always open and whose re-initialize does nothing, no input handlers and no task polling,
 * unless `parts` replace them.
 */
export function unitChain(
  parts: {
    retry?: Partial<RetryHooks>;
    links?: ClientLink[];
    envelope?: RequestEnvelope;
    rounds?: Partial<InputRoundsOptions>;
  } = {},
): RequestChain {
  return new RequestChain({
    requestConfig: {},
    envelope: parts.envelope ?? new RequestEnvelope({ name: "t", version: "1" }),
    lock: undefined,
    links: parts.links,
    retry: { isOpen: () => true, reinitialize: async () => {}, ...parts.retry },
    rounds: {
      handlers: {},
      lifetime: new AbortController().signal,
      maxInputRounds: 10,
      tasks: false,
      pollTask: async () => ({}),
      ...parts.rounds,
    },
  });
}
