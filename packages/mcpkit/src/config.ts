import { defaultInheritedEnvNames } from "@mcpkit/transport-stdio";

/** One server entry of an `mcpServers` (Claude Desktop, Cursor) or `servers` (VS Code) config file. */
export type ServerConfig =
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string; type?: "stdio" }
  | { url: string; headers?: Record<string, string>; type?: "http" | "streamable-http" | "sse" };

/**
 * Picks one server out of a parsed config file, accepting both the `mcpServers` key (Claude Desktop,
 * Cursor, Claude Code) and the `servers` key (VS Code).
 *
 * `${VAR}` (or `${env:VAR}`) is replaced from `env` only where the entry itself names the variable and
 * the value goes where the entry sends it anyway:
 * - in the values of `env` (a stdio entry's child) and of `headers` (an HTTP entry's server): any variable;
 * - in `command`, `args` and `cwd`: only a variable the child receives anyway, one of the entry's own
 *   `env` keys (its value there) or one of the minimal environment's (`HOME`, `PATH`, `USER`, …:
 *   `defaultInheritedEnvNames()`);
 * - never in `url`: a `${…}` there is an error that says so.
 * A variable that is not set is an error too. Errors name the field and the variable, never a value.
 * @throws Error naming the servers the file does have when `name` is not among them, or breaking a rule above.
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
  const entry = servers[name] as Record<string, unknown> | null | undefined;
  if (typeof entry !== "object" || entry === null) {
    const names = Object.keys(servers);
    throw new Error(
      `no server "${name}" in the config file (it has: ${names.length ? names.join(", ") : "none"})`,
    );
  }
  const where = `server "${name}"`;
  if (typeof entry.command === "string") {
    const childEnv = isStringRecord(entry.env)
      ? expandValues(entry.env, env, undefined, `${where}: env`)
      : undefined;
    // What the child gets anyway: the minimal environment and the entry's own `env`.
    const inherited: Record<string, string | undefined> = {};
    for (const key of defaultInheritedEnvNames()) inherited[key] = env[key];
    const visible = { ...inherited, ...childEnv };
    const allowed = new Set(Object.keys(visible));
    const out: ServerConfig = { command: expand(entry.command, visible, allowed, `${where}: "command"`) };
    if (Array.isArray(entry.args)) {
      out.args = entry.args.map((arg, i) => expand(String(arg), visible, allowed, `${where}: args[${i}]`));
    }
    if (childEnv) out.env = childEnv;
    if (typeof entry.cwd === "string") out.cwd = expand(entry.cwd, visible, allowed, `${where}: "cwd"`);
    return out;
  }
  if (typeof entry.url === "string") {
    const variable = ANY_VARIABLE.exec(entry.url);
    if (variable) {
      throw new Error(
        `${where}: "url" contains ${variable[0]}: variables are not expanded in a URL (send a secret in "headers")`,
      );
    }
    const out: ServerConfig = { url: entry.url };
    if (isStringRecord(entry.headers)) {
      out.headers = expandValues(entry.headers, env, undefined, `${where}: headers`);
    }
    if (entry.type === "sse" || entry.type === "http" || entry.type === "streamable-http")
      out.type = entry.type;
    return out;
  }
  throw new Error(`${where} has neither "command" nor "url"`);
}

const VARIABLE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g;
const ANY_VARIABLE = /\$\{[^}]*\}/;

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" && value !== null && Object.values(value).every((v) => typeof v === "string")
  );
}

function expandValues(
  values: Record<string, string>,
  env: Record<string, string | undefined>,
  allowed: ReadonlySet<string> | undefined,
  field: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values))
    out[key] = expand(value, env, allowed, `${field}.${key}`);
  return out;
}

/** `text` with each variable replaced; `allowed` (when given) lists the variables it may use. */
function expand(
  text: string,
  env: Record<string, string | undefined>,
  allowed: ReadonlySet<string> | undefined,
  field: string,
): string {
  return text.replace(VARIABLE, (written: string, key: string) => {
    if (allowed && !allowed.has(key)) {
      throw new Error(
        `${field} uses ${written}, which is neither in the entry's "env" nor in the minimal environment a server gets (${defaultInheritedEnvNames().join(", ")})`,
      );
    }
    const value = env[key];
    if (value === undefined) throw new Error(`${field} uses ${written}, which is not set`);
    return value;
  });
}
