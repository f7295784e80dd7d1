/** One server entry of an `mcpServers` (Claude Desktop, Cursor) or `servers` (VS Code) config file. */
export type ServerConfig =
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string; type?: "stdio" }
  | { url: string; headers?: Record<string, string>; type?: "http" | "streamable-http" | "sse" };

/**
 * Picks one server out of a parsed config file, accepting both the `mcpServers` key (Claude Desktop,
 * Cursor, Claude Code) and the `servers` key (VS Code). `${VAR}` and `${env:VAR}` in strings are
 * replaced from `env`.
 * @throws Error naming the servers the file does have when `name` is not among them.
 */
export function selectServer(
  config: unknown,
  name: string,
  env: Record<string, string | undefined> = {},
): ServerConfig {
  if (typeof config !== "object" || config === null) throw new Error("config file is not a JSON object");
  const record = config as { mcpServers?: unknown; servers?: unknown };
  const servers = (record.mcpServers ?? record.servers) as Record<string, unknown> | undefined;
  if (typeof servers !== "object" || servers === null) {
    throw new Error('config file has no "mcpServers" (or "servers") object');
  }
  const entry = servers[name];
  if (typeof entry !== "object" || entry === null) {
    const names = Object.keys(servers);
    throw new Error(
      `no server "${name}" in the config file (it has: ${names.length ? names.join(", ") : "none"})`,
    );
  }
  const expanded = expand(entry, env) as Record<string, unknown>;
  if (typeof expanded.command === "string") {
    const out: ServerConfig = { command: expanded.command };
    if (Array.isArray(expanded.args)) out.args = expanded.args.map(String);
    if (isStringRecord(expanded.env)) out.env = expanded.env;
    if (typeof expanded.cwd === "string") out.cwd = expanded.cwd;
    return out;
  }
  if (typeof expanded.url === "string") {
    const out: ServerConfig = { url: expanded.url };
    if (isStringRecord(expanded.headers)) out.headers = expanded.headers;
    if (expanded.type === "sse" || expanded.type === "http" || expanded.type === "streamable-http")
      out.type = expanded.type;
    return out;
  }
  throw new Error(`server "${name}" has neither "command" nor "url"`);
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" && value !== null && Object.values(value).every((v) => typeof v === "string")
  );
}

function expand(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === "string") {
    return value.replace(/\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, key: string) => env[key] ?? "");
  }
  if (Array.isArray(value)) return value.map((v) => expand(v, env));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, env)]));
  }
  return value;
}
