import type { RequestEnvelope } from "../request-envelope.js";
import type { Link } from "./link.js";

/**
 * The envelope link: what the request carries besides its own params, computed once per pass from what
 * the caller handed down — the modern `_meta` merged into the params, and every header of the send
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*` from the tool `callTool` looked up).
 * Below the turn (`serialize`), so the headers name the version the `_meta` carries.
 */
export function envelopeLink(envelope: RequestEnvelope): Link {
  return (op, next) => {
    const s = op.session;
    op.wire = envelope.params(s, op.params, op.options?.meta);
    op.headers = envelope.headers(s, op.method, op.params, op.tool);
    return next(op);
  };
}
