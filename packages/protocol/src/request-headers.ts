import { collectParamHeaders, encodeHeaderValue, Header, mcpNameFor } from "./headers.js";
import type { JsonSchema } from "./types/tools.js";

/**
 * The HTTP headers of one 2026-07-28 request, every one of them: `MCP-Protocol-Version` (which must equal
 * the `_meta` version the request carries), `Mcp-Method`, `Mcp-Name` where the method has one (encoded),
 * and, for a `tools/call` given the tool's `inputSchema`, its `Mcp-Param-*` headers. `@mcpkit/client`
 * computes them with this function for each request and hands them to the transport; code that drives a
 * bare `Peer` over Streamable HTTP passes them the same way (`peer.request(m, p, { headers })`): the
 * transport sends the headers it is given and computes none.
 * Call it with an `inputSchema` only for a tool whose annotations passed `validateXMcpHeaderAnnotations`.
 * @see SPEC.md §3.11
 */
export function modernRequestHeaders(
  version: string,
  method: string,
  params: unknown,
  inputSchema?: JsonSchema,
): Record<string, string> {
  const headers: Record<string, string> = { [Header.ProtocolVersion]: version, [Header.Method]: method };
  const name = mcpNameFor(method, params);
  if (name !== undefined) headers[Header.Name] = encodeHeaderValue(name);
  if (inputSchema !== undefined && method === "tools/call") {
    const args =
      typeof params === "object" && params !== null
        ? (params as { arguments?: unknown }).arguments
        : undefined;
    Object.assign(headers, collectParamHeaders(inputSchema, args));
  }
  return headers;
}
