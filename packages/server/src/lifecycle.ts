import { isObject } from "@mcpkit/jsonrpc";
import {
  allowsBatches,
  type ClientCapabilities,
  type Implementation,
  isLegacyVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  McpError,
  McpErrorCode,
  MetaKey,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@mcpkit/protocol";
import { serverCapabilities } from "./capabilities.js";
import type { Conn } from "./connection.js";
import type { ServerCore } from "./server-core.js";
import { encodeSession } from "./shared-session.js";

type Params = Record<string, unknown>;

/**
 * `initialize` (legacy): opens the connection's session at the requested version when the server has
 * it, else at the latest legacy version, and switches JSON-RPC batches on only for versions that have
 * them. The session is not `initialized` until `notifications/initialized`. A session kept in a shared
 * store is answered once the store has it, so the client's next request may reach any instance.
 * @throws McpError -32600 when the session is already initialized.
 * @see SPEC.md §4.2
 */
export function initialize(core: ServerCore, conn: Conn, p: Params): Params | Promise<Params> {
  if (conn.session) throw new McpError(McpErrorCode.InvalidRequest, "The session is already initialized");
  const requested = p.protocolVersion;
  const protocolVersion = isLegacyVersion(requested) ? requested : LATEST_LEGACY_PROTOCOL_VERSION;
  conn.session = {
    protocolVersion,
    clientCapabilities: isObject(p.capabilities) ? (p.capabilities as ClientCapabilities) : {},
    clientInfo: isObject(p.clientInfo) ? (p.clientInfo as unknown as Implementation) : undefined,
    initialized: false,
    logLevel: undefined,
    subscriptions: new Set(),
  };
  conn.era = "legacy";
  conn.peer.batches = allowsBatches(protocolVersion);
  const result: Params = {
    protocolVersion,
    capabilities: serverCapabilities(core, "legacy"),
    serverInfo: core.info,
  };
  if (core.options.instructions !== undefined) result.instructions = core.options.instructions;
  if (conn.shared) return conn.shared.write(encodeSession(conn.session)).then(() => result);
  return result;
}

/**
 * `server/discover` (2026-07-28): the supported versions, the modern capabilities, the instructions and
 * the server's info in `_meta`, with cache hints.
 * @see SPEC.md §3.3
 */
export function discover(core: ServerCore): Params {
  const result: Params = {
    supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    capabilities: serverCapabilities(core, "modern"),
  };
  if (core.options.instructions !== undefined) result.instructions = core.options.instructions;
  core.cacheHints(result);
  result._meta = { [MetaKey.ServerInfo]: core.info };
  return result;
}

/** `ping` (legacy): an empty result. */
export function ping(): Params {
  return {};
}
