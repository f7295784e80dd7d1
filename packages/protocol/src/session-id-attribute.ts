import { sha256 } from "./sha256.js";

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * The `mcp.session.id` span attribute of one connection: `sha256:` and the first 32 hex digits of the
 * session id's SHA-256, which tells the spans of one session apart but cannot be sent back as a session id;
 * or the raw id when the app asked for it (`TelemetryOption.rawSessionId`). A connection has one session,
 * so the hash is computed once, not per span.
 */
export class SessionIdAttribute {
  private lastSession = "";
  private lastAttribute = "";

  constructor(private readonly raw: boolean) {}

  /** The attribute value for `sessionId`. */
  of(sessionId: string): string {
    if (this.raw) return sessionId;
    if (sessionId !== this.lastSession) {
      this.lastSession = sessionId;
      const digest = sha256(new TextEncoder().encode(sessionId));
      let out = "sha256:";
      for (let i = 0; i < 16; i++) out += HEX[digest[i]!];
      this.lastAttribute = out;
    }
    return this.lastAttribute;
  }
}
