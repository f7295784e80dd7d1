import { readFile } from "node:fs/promises";
import { ConfigError, type ConfigReader, createConfigReader } from "./internal/config-reader.js";
import { readGatewaySettings } from "./settings.js";
import type { GatewayConfig, UpstreamConfig } from "./types.js";

/**
 * Reads a gateway config file: an `mcpServers` map in the form desktop hosts use (each entry
 * `command`/`args`/`env`/`cwd`, or `url`/`headers` with an optional `type` of `http` or `sse`) and a
 * `gateway` key with the gateway's own settings.
 *
 * `${VAR}` in an entry's `env` and `headers` values is replaced from `env` (never in `command`, `args`
 * or `url`: a secret belongs in the child's environment or a header).
 * @throws ConfigError naming the file, the key and the problem (the first problem found).
 */
export async function loadGatewayConfig(
  file: string,
  env: Record<string, string | undefined> = process.env,
): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new ConfigError(file, "", `cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(file, "", `is not JSON (${(error as Error).message})`);
  }
  return parseGatewayConfig(value, { file, env });
}

/** Where a config came from, for its error messages, and the environment its `${VAR}`s read. */
export interface ParseConfigOptions {
  /** Named in every error (default `"config"`). */
  file?: string;
  env?: Record<string, string | undefined>;
}

/**
 * Checks a parsed gateway config (see {@link loadGatewayConfig}) and fills in the defaults.
 * @throws ConfigError naming the file, the key and the problem.
 */
export function parseGatewayConfig(value: unknown, options: ParseConfigOptions = {}): GatewayConfig {
  const read = createConfigReader(options.file ?? "config");
  const root = read.object(value, "");
  const servers = read.object(root.mcpServers ?? root.servers, "mcpServers");
  const names = Object.keys(servers);
  if (names.length === 0) read.fail("mcpServers", "lists no server");
  const upstreams: UpstreamConfig[] = names.map((name) =>
    readUpstreamEntry(read, name, servers[name], options.env ?? {}),
  );
  const settings = readGatewaySettings(read, root.gateway, names, options.env ?? {});
  return { upstreams, settings };
}

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

function readUpstreamEntry(
  read: ConfigReader,
  name: string,
  raw: unknown,
  env: Record<string, string | undefined>,
): UpstreamConfig {
  const key = `mcpServers.${name}`;
  if (!NAME.test(name)) read.fail(key, "a server name may hold only letters, digits, _ . - (1 to 64)");
  const entry = read.object(raw, key);
  if (entry.command !== undefined) {
    const command = read.string(entry.command, `${key}.command`);
    const args = entry.args === undefined ? [] : read.strings(entry.args, `${key}.args`);
    const out: UpstreamConfig = { name, kind: "stdio", command, args };
    if (entry.env !== undefined)
      out.env = expandAll(read, read.stringMap(entry.env, `${key}.env`), env, `${key}.env`);
    if (entry.cwd !== undefined) out.cwd = read.string(entry.cwd, `${key}.cwd`);
    return out;
  }
  if (entry.url !== undefined) {
    const url = read.string(entry.url, `${key}.url`);
    if (url.includes("${"))
      read.fail(`${key}.url`, "variables are not expanded in a URL (send a secret in headers)");
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return read.fail(`${key}.url`, "is not a URL");
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      read.fail(`${key}.url`, "must be http: or https:");
    }
    const type = entry.type === undefined ? "http" : read.string(entry.type, `${key}.type`);
    if (type !== "http" && type !== "streamable-http" && type !== "sse") {
      read.fail(`${key}.type`, `must be "http", "streamable-http" or "sse", got "${type}"`);
    }
    const out: UpstreamConfig = { name, kind: type === "sse" ? "sse" : "http", url };
    if (entry.headers !== undefined) {
      out.headers = expandAll(read, read.stringMap(entry.headers, `${key}.headers`), env, `${key}.headers`);
    }
    return out;
  }
  return read.fail(key, 'has neither "command" nor "url"');
}

const VARIABLE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g;

function expandAll(
  read: ConfigReader,
  values: Record<string, string>,
  env: Record<string, string | undefined>,
  key: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(values)) {
    out[name] = text.replace(VARIABLE, (written: string, variable: string) => {
      const found = env[variable];
      if (found === undefined) read.fail(`${key}.${name}`, `uses ${written}, which is not set`);
      return found as string;
    });
  }
  return out;
}
