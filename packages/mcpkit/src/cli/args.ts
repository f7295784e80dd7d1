/** The commands of the `mcpkit` CLI. */
export const COMMANDS = [
  "inspect",
  "tools",
  "resources",
  "templates",
  "prompts",
  "call",
  "read",
  "prompt",
  "skills",
  "skill",
  "logout",
] as const;
export type Command = (typeof COMMANDS)[number];

/** Where the CLI connects: a URL, a command line, or a server of an `mcpServers` config file. */
export type CliTarget =
  | { kind: "url"; url: string }
  | { kind: "command"; command: string; args: string[] }
  /** Without `server` (`--config FILE` alone) the CLI names the file's servers (a usage error, exit 2). */
  | { kind: "config"; file: string; server: string | undefined };

/** A parsed command line. */
export interface CliArgs {
  command: Command | "help" | "version";
  /** The command a `--help` asks about, if any. */
  helpFor?: Command;
  target?: CliTarget;
  /**
   * `call`: the tool; `read`: the URI; `prompt`: the prompt name; `skill`: the skill's name or URI.
   * Absent when the line gave none: the CLI then names what the server has (a usage error, exit 2).
   */
  name?: string;
  /** `skill --file PATH`: a file of the skill (relative to its root) instead of its SKILL.md. */
  file?: string;
  /** `--arg k=v` pairs, in order. */
  pairs: Array<[string, string]>;
  /** `--args '{…}'` (or the old `--json '{…}'`): the arguments object for `call` / `prompt`. */
  jsonArgs?: Record<string, unknown>;
  /** `--json`: machine-readable output. */
  json: boolean;
  verbose: boolean;
  headers: Record<string, string>;
  bearerToken?: string;
  /** `--oauth`: sign in through the server's authorization server (browser, loopback redirect). */
  oauth: boolean;
  clientId?: string;
  clientSecret?: string;
  /** `--issuer URL`: the authorization server `--client-id` is registered with (its secret goes only there). */
  issuer?: string;
  /** `--redirect-port PORT`: the loopback redirect's port (a pre-registered client's fixed redirect URI). */
  redirectPort?: number;
  timeout?: number;
  /** `--connect-timeout MS`: bound on the handshake (default: `--timeout` when given, else the client's). */
  connectTimeout?: number;
  /** `--trace`: the wire trace (each JSON-RPC message in and out) on stderr. */
  trace?: boolean;
  /** `--trace-arguments`: the trace with the values of tool and prompt arguments (redacted otherwise). */
  traceArguments?: boolean;
  /** `--save DIR`: `call` / `read` write binary contents (images, audio, blobs) into DIR. */
  save?: string;
  /** One-line notices for stderr (an old spelling accepted, a secret on the command line). */
  notices: string[];
}

/** A command line the CLI cannot act on; its message is the one line the user sees. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The commands that take a name, and what it names. */
const NAMED: Partial<Record<Command, string>> = {
  call: "tool",
  read: "URI",
  prompt: "prompt",
  skill: "skill",
};

const TARGET_FORMS =
  "an http(s) URL (before or after the name), -- command args… (last on the line), or --config FILE --server NAME";

function isHttpUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

function positiveMs(flag: string, raw: string): number {
  const ms = Number(raw);
  if (!(ms > 0)) throw new UsageError(`${flag} expects a positive number of milliseconds, got ${raw}`);
  return ms;
}

function jsonObject(flag: string, text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // Reported below, as for any other value that is not an object.
  }
  throw new UsageError(`${flag} expects a JSON object, got ${text}`);
}

/**
 * Parses a command line: `mcpkit <command> [options] [target] [name]`, the options anywhere before `--`.
 *
 * The target is one of: an http(s) URL, anywhere among the words after the command (before or after the
 * name: `call URL tool` and `call tool URL` are the same); `--config FILE --server NAME`; or `-- command
 * args…`, always last (everything after `--` is the server's command line). The name (`call`'s tool,
 * `read`'s URI, `prompt`'s and `skill`'s name) is the one other word; `read` of an http(s) URI with a URL
 * target takes the first URL as the target. Arguments: `--arg k=v` (repeatable) and `--args '{…}'`;
 * `--json` asks for JSON output (`--json '{…}'`, the old spelling of `--args`, is accepted with a notice).
 * Pure: no I/O.
 * @throws UsageError with a one-line message.
 */
export function parseArgs(argv: readonly string[]): CliArgs {
  const out: CliArgs = {
    command: "help",
    pairs: [],
    json: false,
    verbose: false,
    headers: {},
    oauth: false,
    notices: [],
  };
  const dashdash = argv.indexOf("--");
  const head = dashdash === -1 ? [...argv] : argv.slice(0, dashdash);
  const tail = dashdash === -1 ? [] : argv.slice(dashdash + 1);
  const positionals: string[] = [];
  let help = false;
  let configFile: string | undefined;
  let configServer: string | undefined;

  for (let i = 0; i < head.length; i++) {
    const token = head[i]!;
    const value = (flag: string): string => {
      const v = head[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (token) {
      case "-h":
      case "--help":
        help = true;
        break;
      case "-V":
      case "--version":
        out.command = "version";
        return out;
      case "-v":
      case "--verbose":
        out.verbose = true;
        break;
      case "--trace":
        out.trace = true;
        break;
      case "--trace-arguments":
        out.trace = true;
        out.traceArguments = true;
        break;
      case "--json": {
        // The old spelling of --args: `--json '{…}'`. A bare `--json` asks for JSON output.
        const next = head[i + 1];
        if (next?.trimStart().startsWith("{")) {
          i++;
          out.jsonArgs = jsonObject("--json", next);
          out.notices.push(
            "--json '{…}' for arguments is now --args '{…}' (--json alone asks for JSON output)",
          );
        } else {
          out.json = true;
        }
        break;
      }
      case "--args":
        out.jsonArgs = jsonObject(token, value(token));
        break;
      case "-a":
      case "--arg": {
        const pair = value(token);
        const eq = pair.indexOf("=");
        if (eq <= 0) throw new UsageError(`--arg expects key=value, got ${pair}`);
        out.pairs.push([pair.slice(0, eq), pair.slice(eq + 1)]);
        break;
      }
      case "-H":
      case "--header": {
        const header = value(token);
        const colon = header.indexOf(":");
        if (colon <= 0) throw new UsageError(`--header expects "Name: value", got ${header}`);
        out.headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
        break;
      }
      case "--bearer-token":
        out.bearerToken = value(token);
        out.notices.push(
          "--bearer-token is visible to other users in the process list; set MCPKIT_BEARER_TOKEN instead",
        );
        break;
      case "--oauth":
        out.oauth = true;
        break;
      case "--client-id":
        out.clientId = value(token);
        break;
      case "--issuer":
        out.issuer = value(token);
        break;
      case "--client-secret":
        out.clientSecret = value(token);
        out.notices.push(
          "--client-secret is visible to other users in the process list; set MCPKIT_CLIENT_SECRET instead",
        );
        break;
      case "--redirect-port": {
        const raw = value(token);
        const port = Number(raw);
        if (!Number.isInteger(port) || port < 1 || port > 65_535)
          throw new UsageError(`--redirect-port expects a port number (1-65535), got ${raw}`);
        out.redirectPort = port;
        break;
      }
      case "--timeout":
        out.timeout = positiveMs(token, value(token));
        break;
      case "--connect-timeout":
        out.connectTimeout = positiveMs(token, value(token));
        break;
      case "--config":
        configFile = value(token);
        break;
      case "--server":
        configServer = value(token);
        break;
      case "--file":
        out.file = value(token);
        break;
      case "--save":
        out.save = value(token);
        break;
      default:
        if (token.startsWith("-")) throw new UsageError(`unknown option ${token} (see mcpkit --help)`);
        positionals.push(token);
    }
  }

  const command = positionals.shift();
  if (command === undefined || command === "help") {
    out.command = "help";
    const about = positionals[0];
    if (about && (COMMANDS as readonly string[]).includes(about)) out.helpFor = about as Command;
    return out;
  }
  if (!(COMMANDS as readonly string[]).includes(command)) {
    throw new UsageError(`unknown command "${command}" (one of: ${COMMANDS.join(", ")})`);
  }
  out.command = command as Command;
  if (help) {
    out.helpFor = out.command;
    out.command = "help";
    return out;
  }

  // `logout [url]`: the target is optional (none: every stored login) and nothing is connected to.
  if (out.command === "logout") {
    const url = positionals.shift();
    if (url !== undefined) {
      if (!isHttpUrl(url)) throw new UsageError(`logout takes a server URL, got ${url}`);
      out.target = { kind: "url", url };
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    return out;
  }

  const needs = NAMED[out.command as Command];
  let names = positionals;
  if (configFile !== undefined || configServer !== undefined) {
    if (configFile === undefined) throw new UsageError("--server needs --config FILE");
    if (tail.length > 0) throw new UsageError("give one target: --config FILE --server NAME or -- command");
    out.target = { kind: "config", file: configFile, server: configServer };
  } else if (dashdash !== -1) {
    if (tail.length === 0) throw new UsageError("-- must be followed by the server's command line");
    out.target = { kind: "command", command: tail[0]!, args: tail.slice(1) };
  } else {
    // The URL may come before or after the name; with two (`read URL http-uri`), the first is the target.
    const at = positionals.findIndex(isHttpUrl);
    if (at === -1) {
      const of = needs && positionals.length === 1 ? ` for ${needs} "${positionals[0]}"` : "";
      const got = !of && positionals.length > 0 ? `, got ${positionals.join(" ")}` : "";
      throw new UsageError(`${command} needs a target${of}: ${TARGET_FORMS}${got}`);
    }
    out.target = { kind: "url", url: positionals[at]! };
    names = positionals.filter((_word, index) => index !== at);
  }

  if (needs && names.length > 0) out.name = names.shift()!;
  if (names.length > 0) throw new UsageError(`unexpected argument ${names[0]}`);
  if (out.file !== undefined && out.command !== "skill") throw new UsageError("--file applies to skill only");
  if (out.save !== undefined && out.command !== "call" && out.command !== "read")
    throw new UsageError("--save applies to call and read only");
  if (
    (out.pairs.length > 0 || out.jsonArgs !== undefined) &&
    out.command !== "call" &&
    out.command !== "prompt"
  )
    throw new UsageError("--arg and --args apply to call and prompt only");
  if (out.oauth && out.target.kind === "command")
    throw new UsageError("--oauth applies to HTTP servers only");
  if (out.oauth && out.bearerToken !== undefined)
    throw new UsageError("use either --oauth or --bearer-token");
  if (out.clientId !== undefined && out.issuer === undefined)
    throw new UsageError("--client-id needs --issuer URL, the authorization server it is registered with");
  if (out.redirectPort !== undefined && !out.oauth)
    throw new UsageError("--redirect-port applies to --oauth");
  return out;
}

/**
 * Turns `--arg k=v` pairs into an arguments object, coercing each value to the type the tool's input
 * schema gives that property (number, integer, boolean, object, array; strings stay as they are).
 * Without a schema, values that look like JSON numbers, booleans, null, objects or arrays are parsed.
 */
export function coerceArgs(
  pairs: ReadonlyArray<[string, string]>,
  schema?: { properties?: Record<string, { type?: unknown }> },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of pairs) {
    const declared = schema?.properties?.[key]?.type;
    const type = Array.isArray(declared) ? declared.find((t) => t !== "null") : declared;
    out[key] = coerce(key, raw, typeof type === "string" ? type : undefined);
  }
  return out;
}

function coerce(key: string, raw: string, type: string | undefined): unknown {
  switch (type) {
    case "string":
      return raw;
    case "number":
    case "integer": {
      const n = Number(raw);
      if (raw.trim() === "" || Number.isNaN(n))
        throw new UsageError(`--arg ${key} expects a number, got ${raw}`);
      if (type === "integer" && !Number.isInteger(n))
        throw new UsageError(`--arg ${key} expects an integer, got ${raw}`);
      return n;
    }
    case "boolean":
      if (raw === "true") return true;
      if (raw === "false") return false;
      throw new UsageError(`--arg ${key} expects true or false, got ${raw}`);
    case "object":
    case "array":
      try {
        return JSON.parse(raw);
      } catch {
        throw new UsageError(`--arg ${key} expects JSON (${type}), got ${raw}`);
      }
    default:
      if (/^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null|[[{].*)$/s.test(raw)) {
        try {
          return JSON.parse(raw);
        } catch {
          return raw;
        }
      }
      return raw;
  }
}
