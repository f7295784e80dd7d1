import type { JsonRpcId } from "@mcpkit/jsonrpc";
import { decodeHeaderValue, Header, MetaKey, mcpNameFor } from "@mcpkit/protocol";
import { type HandlerState, overloaded, Rejection, reject, reportError } from "./handler-state.js";
import { emptyReply, errorReply, type Reply } from "./http-util.js";
import type { InboundRequest } from "./inbound.js";
import { connectionInfo, messageInfo } from "./message-info.js";
import { ModernExchange, OneShotTransport } from "./modern.js";
import type { ValidMessage } from "./request-checks.js";

function versionMismatch(header: string, metaVersion: string, id: JsonRpcId | undefined): Rejection {
  return reject(
    400,
    -32020,
    `Header mismatch: MCP-Protocol-Version ${header} differs from _meta protocolVersion ${metaVersion}`,
    id,
  );
}

/**
 * A modern POST's version and header checks: its protocol version, or the refusal (400 -32022 with
 * `{ supported, requested }`, -32602 without `_meta` version, -32020 for a header that differs from the body).
 * @see SPEC.md §3.11 (2026-07-28)
 */
export function checkModern(
  state: HandlerState,
  req: InboundRequest,
  parsed: ValidMessage,
): string | Rejection {
  const message = parsed.message as { id?: JsonRpcId; method?: string; params?: unknown };
  const id = parsed.kind === "request" ? message.id : undefined;
  const header = req.header(Header.ProtocolVersion)?.trim();
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const metaVersion = meta?.[MetaKey.ProtocolVersion];
  if (header === undefined || header === "") {
    if (metaVersion === undefined) {
      // A legacy request (initialize) at a modern-only server: name the versions we speak.
      const asked = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      return reject(400, -32022, "Unsupported protocol version", id, {
        supported: state.supported,
        requested: typeof asked === "string" ? asked : "",
      });
    }
    return reject(400, -32020, "Header mismatch: the MCP-Protocol-Version header is required", id);
  }
  // A header that disagrees with the body is a mismatch, whatever the header names (SPEC.md §3.11).
  if (typeof metaVersion === "string" && metaVersion !== header)
    return versionMismatch(header, metaVersion, id);
  if (!state.supportedModern.includes(header)) {
    return reject(400, -32022, `Unsupported protocol version: ${header}`, id, {
      supported: state.supported,
      requested: header,
    });
  }
  // Header rules for notification POSTs are undefined in 2026-07-28 (SPEC.md §8.9): only the version is checked.
  if (parsed.kind !== "request") return header;
  if (typeof metaVersion !== "string") {
    return reject(400, -32602, `Invalid params: _meta["${MetaKey.ProtocolVersion}"] is required`, id);
  }
  const rawMethod = req.header(Header.Method);
  if (rawMethod === null)
    return reject(400, -32020, "Header mismatch: the Mcp-Method header is required", id);
  // Like every Mcp-* value, the method may come in the `=?base64?…?=` form: compare what it says.
  if (decodeHeaderValue(rawMethod.trim()) !== message.method) {
    return reject(400, -32020, "Header mismatch: Mcp-Method differs from the body's method", id);
  }
  const expectedName = mcpNameFor(message.method as string, message.params);
  if (expectedName !== undefined) {
    // Header values are compared after trimming optional whitespace (RFC 9110 §5.5) and decoding base64.
    const raw = req.header(Header.Name);
    if (raw === null) return reject(400, -32020, "Header mismatch: the Mcp-Name header is required", id);
    if (decodeHeaderValue(raw.trim()) !== expectedName) {
      return reject(400, -32020, "Header mismatch: Mcp-Name differs from the body", id);
    }
  }
  return header;
}

/**
 * A modern POST: checked, then carried by a one-shot transport connected to the app for this request
 * alone (a request's reply is its exchange's response; a notification is answered 202 once delivered).
 */
export async function handleModernPost(
  state: HandlerState,
  req: InboundRequest,
  parsed: ValidMessage,
): Promise<Reply> {
  const version = checkModern(state, req, parsed);
  if (version instanceof Rejection) return version.response;
  if (parsed.kind === "success" || parsed.kind === "error") {
    return errorReply(400, -32600, "Invalid Request: clients do not send responses in this protocol version");
  }
  if (parsed.kind === "request") {
    const busy = overloaded(state, parsed.message.id);
    if (busy) return busy;
  }
  const abort = new AbortController();
  const info = messageInfo(req, version, undefined, abort.signal);
  const exchange =
    parsed.kind === "request"
      ? new ModernExchange(parsed.message.id, state.preferJson, state.keepAliveInterval, state.sseLimit)
      : undefined;
  // One transport per request: the app keeps no state between modern requests, and the transport's
  // close is the end of the request (response sent or client gone).
  const oneShots = state.oneShots;
  let transport!: OneShotTransport;
  transport = new OneShotTransport(exchange, () => oneShots.delete(transport), abort);
  oneShots.add(transport);
  if (exchange) req.onGone(() => exchange.clientGone());
  try {
    await state.options.connect(transport, connectionInfo(req, "modern", undefined));
  } catch (error) {
    reportError(state, error);
    await transport.close();
    return errorReply(500, -32603, "Internal error", exchange?.id);
  }
  transport.deliver(parsed.message, info);
  if (!exchange) {
    // A notification is delivered and done.
    void transport.close();
    return emptyReply(202);
  }
  return exchange.response;
}
