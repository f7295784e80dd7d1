import type { InboundRequest } from "./inbound.js";

/** The owner of a legacy session opened by a request `authenticate` did not identify (or with no `authenticate`). */
export const ANONYMOUS = "anonymous";

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/**
 * The identity a legacy session is bound to: the auth subject and client id of what `authenticate`
 * verified for the request (`subject` or `sub`, `clientId` or `client_id`, as `@mcpkit/auth`'s `AuthInfo`
 * and raw claims name them; a string is the subject itself), or {@link ANONYMOUS} when it names neither.
 * Only a request of the same identity may use the session afterwards; any other gets 404.
 */
export function sessionOwnerOf(req: InboundRequest): string {
  const value = req.identity?.value;
  if (typeof value === "string") return value === "" ? ANONYMOUS : JSON.stringify([value, null]);
  if (value === null || typeof value !== "object") return ANONYMOUS;
  const v = value as Record<string, unknown>;
  const subject = text(v.subject) ?? text(v.sub);
  const clientId = text(v.clientId) ?? text(v.client_id);
  if (subject === null && clientId === null) return ANONYMOUS;
  // JSON: no subject can be made to look like another subject plus a client id.
  return JSON.stringify([subject, clientId]);
}
