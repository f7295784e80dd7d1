import { UsageError } from "./args.js";

/** The cassette commands of the `mcpkit` CLI. */
export const CASSETTE_COMMANDS = ["record", "replay", "verify", "diff"] as const;
/** One of {@link CASSETTE_COMMANDS}. */
export type CassetteCommand = (typeof CASSETTE_COMMANDS)[number];

/** A server to reach: a command line (after `--`) or a Streamable HTTP URL. */
export type LiveTarget = { kind: "command"; command: string; args: string[] } | { kind: "url"; url: string };

/** A parsed cassette command line. */
export interface CassetteArgs {
  command: CassetteCommand;
  /** `--help` / `-h`. */
  help: boolean;
  /** `record --out FILE`. */
  out?: string;
  /** `replay FILE`, `verify FILE`: the cassette. */
  file?: string;
  /** `diff A B`: cassette files or URLs (a command target, after `--`, is the last one). */
  operands: string[];
  target?: LiveTarget;
  /** `--redact KEY` (repeatable): more keys whose values are secrets. */
  redactKeys: string[];
  /** `--no-redact`: keep every value (the cassette then must not leave the machine). */
  redact: boolean;
  /** `--timings`: record milliseconds since the start on each event. */
  timings: boolean;
  /** `--header 'Name: value'` (repeatable) for a URL target. */
  headers: Record<string, string>;
  /** `replay --http PORT`. */
  httpPort?: number;
  /** `replay --match exact|loose`, `--ignore-order`. */
  match: "exact" | "loose";
  ignoreOrder: boolean;
  /** `verify --timeout MS`. */
  timeout?: number;
  /** `diff --json`. */
  json: boolean;
}

/** Whether `word` (the first argument) names a cassette command. */
export function isCassetteCommand(word: string | undefined): word is CassetteCommand {
  return (CASSETTE_COMMANDS as readonly string[]).includes(word ?? "");
}

function number(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < 0)
    throw new UsageError(`${flag} needs a whole number`);
  return n;
}

/**
 * Parses `record|replay|verify|diff …` (the command word first).
 * @throws UsageError naming what is missing or unknown.
 */
export function parseCassetteArgs(argv: readonly string[]): CassetteArgs {
  const command = argv[0];
  if (!isCassetteCommand(command)) throw new UsageError(`unknown command: ${String(command)}`);
  const args: CassetteArgs = {
    command,
    help: false,
    operands: [],
    redactKeys: [],
    redact: true,
    timings: false,
    headers: {},
    match: "loose",
    ignoreOrder: false,
    json: false,
  };
  const dash = argv.indexOf("--");
  const words = dash >= 0 ? argv.slice(1, dash) : argv.slice(1);
  if (dash >= 0) {
    const [cmd, ...rest] = argv.slice(dash + 1);
    if (cmd === undefined)
      throw new UsageError(`${command}: -- must be followed by the server's command line`);
    args.target = { kind: "command", command: cmd, args: rest };
  }
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const value = () => {
      const next = words[++i];
      if (next === undefined) throw new UsageError(`${word} needs a value`);
      return next;
    };
    if (word === "--help" || word === "-h") args.help = true;
    else if (word === "--out" || word === "-o") args.out = value();
    else if (word === "--redact") args.redactKeys.push(value());
    else if (word === "--no-redact") args.redact = false;
    else if (word === "--timings") args.timings = true;
    else if (word === "--http") args.httpPort = number(word, value());
    else if (word === "--timeout") args.timeout = number(word, value());
    else if (word === "--json") args.json = true;
    else if (word === "--ignore-order") args.ignoreOrder = true;
    else if (word === "--match") {
      const m = value();
      if (m !== "exact" && m !== "loose") throw new UsageError(`--match must be exact or loose, got ${m}`);
      args.match = m;
    } else if (word === "--header" || word === "-H") {
      const header = value();
      const colon = header.indexOf(":");
      if (colon <= 0) throw new UsageError(`--header needs 'Name: value', got ${header}`);
      args.headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    } else if (word.startsWith("-")) throw new UsageError(`${command}: unknown option ${word}`);
    else args.operands.push(word);
  }
  if (args.help) return args;
  const urls = args.operands.filter((o) => /^https?:\/\//i.test(o));
  if (command === "record") {
    if (args.out === undefined) throw new UsageError("record needs --out FILE");
    if (!args.target && urls[0]) args.target = { kind: "url", url: urls[0] };
    if (!args.target) throw new UsageError("record needs a server: -- <command …> or a URL");
  } else if (command === "replay" || command === "verify") {
    const file = args.operands.find((o) => !/^https?:\/\//i.test(o));
    if (file === undefined) throw new UsageError(`${command} needs the cassette file`);
    args.file = file;
    if (command === "verify") {
      if (!args.target && urls[0]) args.target = { kind: "url", url: urls[0] };
      if (!args.target) throw new UsageError("verify needs a server: -- <command …> or a URL");
    }
  } else if (args.operands.length + (args.target ? 1 : 0) !== 2)
    throw new UsageError(
      "diff needs two things to compare: cassette files or URLs (a command last, after --)",
    );
  return args;
}

/** The usage text of the cassette commands. */
export const CASSETTE_HELP = `mcpkit record --out FILE [--redact KEY]… [--no-redact] [--timings] -- <server command …>
mcpkit record --out FILE [--header 'Name: value']… URL
    A transparent recording proxy: speak MCP to it on stdio (point any host at it in place of the
    server); it passes every message on unchanged and writes the session to FILE when it ends.
    Secrets (Authorization, cookies, tokens, keys, passwords, --redact KEY) are redacted.
mcpkit replay FILE [--http PORT] [--match exact|loose] [--ignore-order]
    Serves the cassette as the server it recorded, on stdio (or Streamable HTTP at
    http://127.0.0.1:PORT/mcp). loose (default) ignores ids and _meta; exact compares everything.
    An unmatched request is answered at once with an error naming the nearest recorded request.
mcpkit verify FILE [--timeout MS] -- <server command …>   |   mcpkit verify FILE URL
    Plays the recorded client against a live server; exit 1 naming the first divergence.
mcpkit diff A B [--json]
    What changed between two servers or two versions of one (tools, prompts, resources,
    templates, capabilities). A and B: cassette files or URLs; a command line goes last, after --.
    Exit 1 when a change is breaking.`;
