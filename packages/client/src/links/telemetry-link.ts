import type { Link } from "./link.js";

/**
 * The telemetry link, outermost: on an observed session, gives each call its token, which every request
 * made for that call below (its `input_required` rounds, its task's polls, a link's changed copy) carries
 * too, so the peer's observer links their spans to the first one. The spans themselves are the peer
 * observer's (`@mcpkit/protocol/telemetry`); an unobserved session costs one property read.
 */
export const telemetryLink: Link = (op, next) => {
  if (op.session.observed) op.operation ??= {};
  return next(op);
};
