import type { SendOptions, Transport } from "@mcpkit/jsonrpc";
import { modernRequestHeaders } from "@mcpkit/protocol";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { spawnStdioTransport } from "@mcpkit/transport-stdio";
import type { LiveTarget } from "./cassette-args.js";

const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

/**
 * A transport to a live server for the cassette commands: a spawned command (its stderr discarded
 * unless `verbose`) or a Streamable HTTP URL with the given headers.
 */
export function liveTransport(
  target: LiveTarget,
  headers: Record<string, string>,
  verbose = false,
): Transport {
  if (target.kind === "command")
    return spawnStdioTransport({
      command: target.command,
      args: target.args,
      stderr: verbose ? "inherit" : "ignore",
    });
  return createStreamableHttpClientTransport({ url: target.url, headers });
}

/**
 * The send options of one message to an HTTP server: a modern request's `MCP-Protocol-Version`,
 * `Mcp-Method` and `Mcp-Name` headers, computed from its `_meta` as our client computes them (no
 * `Mcp-Param-*`: the proxy does not know the tool's schema here). Undefined for anything else.
 */
export function modernSendOptions(message: unknown, inputSchema?: unknown): SendOptions | undefined {
  const m = message as { method?: unknown; params?: { _meta?: Record<string, unknown> } };
  const version = m.params?._meta?.[VERSION_KEY];
  if (typeof m.method !== "string" || typeof version !== "string") return undefined;
  return {
    headers: modernRequestHeaders(
      version,
      m.method,
      m.params,
      inputSchema as Parameters<typeof modernRequestHeaders>[3],
    ),
  };
}
