/** One upstream MCP server, as its `mcpServers` entry gives it. */
export interface UpstreamConfig {
  /** The entry's key in `mcpServers`; errors and the audit log name the upstream by it. */
  name: string;
  /** `stdio`: spawned (and respawned after a crash); `http`: Streamable HTTP, either era; `sse`: HTTP+SSE. */
  kind: "stdio" | "http" | "sse";
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
}

/** The gateway's settings for one upstream (`gateway.upstreams.<name>`). */
export interface UpstreamSettings {
  /** Put before each tool and prompt name, joined by the separator. Default: none with one upstream, else the upstream's name. */
  prefix: string | undefined;
  /** Bound on each forwarded call, in ms (default 60 000). */
  timeoutMs: number;
  /** Which era to speak to it: `auto` (default) probes, `modern` / `legacy` force one. */
  era: "auto" | "modern" | "legacy";
  /**
   * One call at a time to this upstream. A legacy (2025-11-25) server's requests to the client
   * (elicitation, sampling, roots) carry nothing that says which call they belong to: with several calls
   * in flight the gateway refuses them rather than guess; `exclusive` makes them unambiguous.
   */
  exclusive: boolean;
  /** Keep only these names (the upstream's own names; `*` matches any run of characters). */
  include: string[] | undefined;
  /** Drop these names (after `include`). */
  exclude: string[];
}

/** Which names of each kind a profile may see and call (exposed names; `*` matches any run of characters). */
export interface ProfileRules {
  tools: NameRule;
  prompts: NameRule;
  resources: NameRule;
}

/** An allow list (default everything) and a deny list applied after it. */
export interface NameRule {
  allow: string[];
  deny: string[];
}

/** Which identities a profile serves; every given condition must hold. */
export interface ProfileMatch {
  /** Identity names (an API key's name, or a token's `sub`). */
  identities?: string[];
  /** Scopes the token must all have. */
  scopes?: string[];
  /** Claims the token must have with exactly these values. */
  claims?: Record<string, string | number | boolean>;
}

/** A named set of rules and the identities it applies to (`gateway.profiles[]`; the first match wins). */
export interface Profile {
  name: string;
  match: ProfileMatch;
  rules: ProfileRules;
  /** Calls per minute per identity (default: `gateway.limits.callsPerMinute`). */
  callsPerMinute: number | undefined;
  /** Calls in flight per identity (default: `gateway.limits.concurrency`). */
  concurrency: number | undefined;
}

/** An API key: the identity it proves, given as the key itself from an environment variable or as its SHA-256. */
export interface ApiKeyConfig {
  identity: string;
  /** Hex SHA-256 of the key (the key read from `env` is hashed at load). */
  sha256: string;
}

/** The `gateway` key of the config file, checked and with defaults filled in. */
export interface GatewaySettings {
  /** Joins a prefix and a name. Default `__`. */
  separator: string;
  upstreams: Record<string, UpstreamSettings>;
  /** API keys accepted in `X-Api-Key` or `Authorization: Bearer`. */
  apiKeys: ApiKeyConfig[];
  /** Rule sets by identity; none: one profile that sees everything. */
  profiles: Profile[];
  /** The profile of a request without credentials; undefined: such a request gets 401 when keys or OAuth are set. */
  anonymousProfile: string | undefined;
  /** Tool-definition pinning: the file holding approved definitions; undefined: off. */
  pinningFile: string | undefined;
  audit: { target: "stderr" | "off" | { file: string }; arguments: boolean };
  limits: { callsPerMinute: number | undefined; concurrency: number | undefined };
  /** Offer a `search_tools` meta-tool and only the tools named in `alwaysOffer` besides it. */
  searchTools: { enabled: boolean; alwaysOffer: string[] };
  /** How long a call waiting on a client's answer (an `input_required` round) is held, in ms (default 300 000). */
  inputTimeoutMs: number;
  /** At most this many static resources per upstream are subscribed to upstream for `resources/updated` (default 100). */
  maxResourceSubscriptions: number;
}

/** A whole gateway config: the upstreams and the gateway's own settings. */
export interface GatewayConfig {
  upstreams: UpstreamConfig[];
  settings: GatewaySettings;
}
