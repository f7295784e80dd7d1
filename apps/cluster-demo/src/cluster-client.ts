import { mcpNameFor } from "@mcpkit/protocol";
import { type Message, Reply } from "./reply.js";

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const CAPABILITIES = { extensions: { "io.modelcontextprotocol/tasks": {} }, elicitation: {} };
const CLIENT_INFO = { name: "cluster-demo", version: "1.0.0" };

/** Every request is bounded: the demo fails rather than hangs. */
const REQUEST_MS = 10_000;

/**
 * A raw MCP client of the cluster, through the proxy, that prints one line per request: what was sent and
 * which instance served it. Raw on purpose: each step is one visible HTTP request.
 */
export class ClusterClient {
  private nextId = 0;
  /** The legacy session of this client, once opened. */
  sessionId = "";

  constructor(
    private readonly base: string,
    private readonly print: (line: string) => void,
  ) {}

  private note(what: string, reply: Reply): Reply {
    this.print(`    ${what.padEnd(58)} → instance ${reply.instance} (HTTP ${reply.status})`);
    return reply;
  }

  /** A 2026-07-28 request: `_meta` carries version, capabilities and client info; no session. */
  async modern(method: string, params: Message, signal?: AbortSignal): Promise<Reply> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
    };
    const name = mcpNameFor(method, params);
    if (name !== undefined) headers["mcp-name"] = name;
    const meta = {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientCapabilities": CAPABILITIES,
      "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    };
    const response = await fetch(`${this.base}/mcp`, {
      method: "POST",
      headers,
      signal: signal ?? AbortSignal.timeout(REQUEST_MS),
      body: JSON.stringify({ jsonrpc: "2.0", id: ++this.nextId, method, params: { ...params, _meta: meta } }),
    });
    return this.note(`${method}${name === undefined ? "" : ` ${name}`} (modern)`, new Reply(response));
  }

  /** A request or notification of the legacy session (`body` without `id` is a notification). */
  async legacy(
    what: string,
    method: "POST" | "GET",
    body?: Message,
    extra: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<Reply> {
    const headers: Record<string, string> = {
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": LEGACY,
      ...extra,
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.sessionId !== "") headers["mcp-session-id"] = this.sessionId;
    const init: RequestInit = { method, headers, signal: signal ?? AbortSignal.timeout(REQUEST_MS) };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(`${this.base}/mcp`, init);
    return this.note(`${what} (legacy session)`, new Reply(response));
  }

  /** A legacy request (with an id) in the session. */
  request(method: string, params: Message = {}): Promise<Reply> {
    const label = method === "tools/call" ? `tools/call ${String(params.name)}` : method;
    return this.legacy(label, "POST", { jsonrpc: "2.0", id: ++this.nextId, method, params });
  }

  /** Opens a legacy 2025-11-25 session: initialize, then notifications/initialized. */
  async openSession(): Promise<void> {
    this.sessionId = "";
    const init = await this.request("initialize", {
      protocolVersion: LEGACY,
      capabilities: { elicitation: {} },
      clientInfo: CLIENT_INFO,
    });
    const answer = await init.answer();
    if (answer?.result?.protocolVersion !== LEGACY)
      throw new Error(`initialize failed: ${JSON.stringify(answer)}`);
    this.sessionId = init.sessionId ?? "";
    const initialized = await this.legacy("notifications/initialized", "POST", {
      jsonrpc: "2.0",
      method: "notifications/initialized",
    });
    if (initialized.status !== 202)
      throw new Error(`notifications/initialized got HTTP ${initialized.status}`);
  }
}
