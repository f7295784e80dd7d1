import { ConnectionClosedError, type Transport } from "@mcpkit/jsonrpc";
import { isObject } from "./internal/util.js";

/** Creates a fresh transport; a factory lets the client reconnect (respawn a crashed stdio server). */
export type TransportFactory = () => Transport | Promise<Transport>;

/**
 * Transports per era, for servers where the era decides the transport (an umbrella that knows the URL
 * supplies these). `modern` carries the `server/discover` probe (and everything else when `legacy` is
 * absent); `legacy` is opened fresh when the probe says the server is legacy; `sse` is the 2024-11-05
 * HTTP+SSE fallback, opened when `initialize` gets HTTP 400, 404 or 405.
 */
export interface TransportChoices {
  modern?: TransportFactory;
  legacy?: TransportFactory;
  sse?: TransportFactory;
}

/**
 * What {@link Client.connect} accepts: a transport (used once), a factory (enables reconnection), or
 * {@link TransportChoices}.
 */
export type TransportSource = Transport | TransportFactory | TransportChoices;

/** @internal How the client gets transports: the source given to `connect()`, normalized. */
export interface Plan {
  readonly respawnable: boolean;
  readonly separateLegacy: boolean;
  readonly hasSse: boolean;
  create(kind: "modern" | "legacy" | "sse"): Promise<Transport>;
}

/** @internal Whether a value has the `Transport` methods (structural: any implementation fits). */
export function isTransport(value: unknown): value is Transport {
  return (
    isObject(value) &&
    typeof value.start === "function" &&
    typeof value.send === "function" &&
    typeof value.close === "function"
  );
}

/** @internal Normalizes what `connect()` was given. @throws TypeError for anything else. */
export function normalizeSource(source: TransportSource): Plan {
  if (isTransport(source)) {
    let used = false;
    return {
      respawnable: false,
      separateLegacy: false,
      hasSse: false,
      async create() {
        if (used) {
          throw new ConnectionClosedError(
            "This Transport object was already used; connect() with a transport factory so the client can reconnect",
          );
        }
        used = true;
        return source;
      },
    };
  }
  if (typeof source === "function") {
    return { respawnable: true, separateLegacy: false, hasSse: false, create: async () => source() };
  }
  if (isObject(source)) {
    const { modern, legacy, sse } = source as TransportChoices;
    if (!modern && !legacy && !sse) {
      throw new TypeError("connect() needs a Transport, a factory, or { modern?, legacy?, sse? } factories");
    }
    return {
      respawnable: true,
      separateLegacy: Boolean(modern && legacy),
      hasSse: Boolean(sse),
      async create(kind) {
        const factory =
          kind === "sse" ? sse : kind === "legacy" ? (legacy ?? modern ?? sse) : (modern ?? legacy ?? sse);
        if (!factory) throw new TypeError(`connect() was given no ${kind} transport factory`);
        return factory();
      },
    };
  }
  throw new TypeError("connect() needs a Transport, a factory, or { modern?, legacy?, sse? } factories");
}
