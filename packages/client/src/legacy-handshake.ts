import { ConnectionClosedError, TimeoutError } from "@mcpkit/jsonrpc";
import { type Implementation, LEGACY_PROTOCOL_VERSIONS, type ServerCapabilities } from "@mcpkit/protocol";
import { InvalidResultError } from "./errors.js";
import { isObject } from "./internal/util.js";
import type { ClientSettings } from "./options.js";
import type { RequestEnvelope } from "./request-envelope.js";
import type { Session } from "./session.js";

/** A deadline as a function: what is left of it in ms, throwing once it passed or the signal aborted. */
export type Budget = () => number;

/**
 * The legacy handshake on `s`: `initialize` offering `version`, then `notifications/initialized` (and the
 * log level the app chose, if any, when the server has logging). The session speaks what the server chose.
 * @throws InvalidResultError when the server chose no version, or one the client does not speak.
 */
export async function initializeLegacy(
  s: Session,
  version: string,
  budget: Budget,
  signal: AbortSignal,
  settings: ClientSettings,
  envelope: RequestEnvelope,
): Promise<void> {
  s.speak("legacy", version);
  const result = await s.peer.request(
    "initialize",
    { protocolVersion: version, capabilities: s.declared, clientInfo: settings.clientInfo },
    { timeout: budget(), signal },
  );
  if (!isObject(result) || typeof result.protocolVersion !== "string") {
    throw new InvalidResultError("initialize", "initialize returned no protocolVersion");
  }
  const chosen = result.protocolVersion;
  if (!(LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(chosen)) {
    throw new InvalidResultError(
      "initialize",
      `The server chose protocol version ${JSON.stringify(chosen)}, which this client does not speak in the legacy era`,
    );
  }
  s.speak("legacy", chosen);
  s.serverInfo = isObject(result.serverInfo) ? (result.serverInfo as unknown as Implementation) : undefined;
  s.serverCapabilities = isObject(result.capabilities) ? (result.capabilities as ServerCapabilities) : {};
  s.instructions = typeof result.instructions === "string" ? result.instructions : undefined;
  await s.peer.notify("notifications/initialized");
  const logLevel = envelope.logLevel;
  if (logLevel && s.serverCapabilities.logging) {
    await s.peer
      .request("logging/setLevel", { level: logLevel }, { timeout: Math.min(budget(), 60_000), signal })
      .catch(settings.onError);
  }
}

/**
 * How a legacy session is initialized again on its own transport after its HTTP session expired: at the
 * version it settled on, bounded by `connectTimeout`, stopped by the client's `lifetime`; every call that
 * found it expired shares the one attempt.
 * @throws ConnectionClosedError (from the returned function) when initializing again failed.
 */
export function legacyReinitializer(
  settings: ClientSettings,
  lifetime: AbortSignal,
  envelope: RequestEnvelope,
): (s: Session, cause: unknown) => Promise<void> {
  const { connectTimeout } = settings;
  return (s, cause) => {
    s.reinit ??= (async () => {
      const deadline = Date.now() + connectTimeout;
      const budget: Budget = () => {
        const left = deadline - Date.now();
        if (left <= 0)
          throw new TimeoutError(`Re-initializing timed out after ${connectTimeout} ms`, connectTimeout);
        return left;
      };
      try {
        await initializeLegacy(s, s.version, budget, lifetime, settings, envelope);
      } catch (error) {
        throw new ConnectionClosedError(`The server's session expired and initializing again failed`, {
          cause: error ?? cause,
        });
      }
    })().finally(() => {
      s.reinit = undefined;
    });
    return s.reinit;
  };
}
