import type { ProtocolEra } from "@mcpkit/protocol";

/** The era and version the client settled on for one server, remembered across connections. */
export interface RememberedEra {
  era: ProtocolEra;
  protocolVersion: string;
  /** Set when the server was reached only through the HTTP+SSE fallback. */
  via?: "sse";
}

/** Where eras are remembered per server key; a `Map` fits. */
export interface EraCache {
  get(serverKey: string): RememberedEra | undefined;
  set(serverKey: string, value: RememberedEra): void;
}

/** Shared by every client that connects with a `serverKey` and no `eraCache` of its own. */
export const defaultEraCache: EraCache = new Map<string, RememberedEra>();
