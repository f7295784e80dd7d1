/**
 * The newest protocol version mcpkit speaks: the stateless "modern" era.
 * @see SPEC.md §1, §3.4
 */
export const LATEST_PROTOCOL_VERSION = "2026-07-28";

/** The newest version of the "legacy" era (`initialize` handshake, sessions). */
export const LATEST_LEGACY_PROTOCOL_VERSION = "2025-11-25";

/** Versions of the modern era (per-request `_meta`, `server/discover`, MRTR), newest first. */
export const MODERN_PROTOCOL_VERSIONS: readonly ["2026-07-28"] = ["2026-07-28"];

/** Versions of the legacy era (`initialize` handshake), newest first. */
export const LEGACY_PROTOCOL_VERSIONS: readonly ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
];

/** Every version mcpkit supports, newest first: the modern ones, then the legacy ones. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly [
  "2026-07-28",
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
] = [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

/**
 * The version a server assumes when a Streamable HTTP request carries no `MCP-Protocol-Version` header
 * (clients before 2025-06-18 did not send it).
 * @see SPEC.md §3.11, §4.8
 */
export const DEFAULT_NEGOTIATED_HTTP_VERSION = "2025-03-26";

/** A modern-era version mcpkit supports. */
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

/** A legacy-era version mcpkit supports. */
export type LegacyProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];

/** Any version mcpkit supports. */
export type ProtocolVersion = ModernProtocolVersion | LegacyProtocolVersion;

/** The two eras of the protocol. */
export type ProtocolEra = "legacy" | "modern";

/** Whether `version` is a supported modern-era version. Accepts any value; never throws. */
export function isModernVersion(version: unknown): version is ModernProtocolVersion {
  return (MODERN_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

/** Whether `version` is a supported legacy-era version. Accepts any value; never throws. */
export function isLegacyVersion(version: unknown): version is LegacyProtocolVersion {
  return (LEGACY_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

/**
 * Whether JSON-RPC batches (a JSON array of messages in one frame) are part of `version`. 2025-06-18
 * removed them, and the modern era never had them; 2025-03-26 and 2024-11-05 keep JSON-RPC 2.0's batches.
 */
export function allowsBatches(version: string): boolean {
  return version === "2025-03-26" || version === "2024-11-05";
}

/** Whether mcpkit supports `version` in either era. Accepts any value; never throws. */
export function isSupportedVersion(version: unknown): version is ProtocolVersion {
  return isModernVersion(version) || isLegacyVersion(version);
}

/**
 * The era of a supported version, or `undefined` for an unknown one.
 */
export function eraOf(version: string): ProtocolEra | undefined {
  if (isModernVersion(version)) return "modern";
  if (isLegacyVersion(version)) return "legacy";
  return undefined;
}
