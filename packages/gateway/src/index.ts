// The public surface of @mcpkit/gateway. Explicit named exports only: a test snapshots this list.

export type { AuditRecord, AuditSink } from "./audit.js";
export { createAuditSink } from "./audit.js";
export { type Caller, DEFAULT_PROFILE, type TokenVerifier } from "./caller.js";
export { loadGatewayConfig, type ParseConfigOptions, parseGatewayConfig } from "./config.js";
export { ConfigError, NameCollisionError } from "./errors.js";
export {
  createGateway,
  type Gateway,
  type GatewayEndpoint,
  type GatewayListenOptions,
  type GatewayOptions,
} from "./gateway.js";
export { createFilePinStore, type HeldTool, type PinStore, toolFingerprint } from "./pinning.js";
export type { Identity } from "./rules.js";
export { CALL_TOOL, SEARCH_TOOLS } from "./search-tools.js";
export type {
  ApiKeyConfig,
  GatewayConfig,
  GatewaySettings,
  NameRule,
  Profile,
  ProfileMatch,
  ProfileRules,
  UpstreamConfig,
  UpstreamSettings,
} from "./types.js";
