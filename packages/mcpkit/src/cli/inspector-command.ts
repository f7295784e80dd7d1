// `mcpkit inspector` (the web inspector of @mcpkit/inspector) and `mcpkit test` (a saved collection run
// headless). @mcpkit/inspector is imported only when one of these runs.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import type { InspectorTarget } from "@mcpkit/inspector";
import { selectServer } from "../config.js";
import type { CliIo } from "./io.js";

/** The usage of `mcpkit inspector` and `mcpkit test`. */
export const INSPECTOR_USAGE = `usage: mcpkit inspector [TARGET] [--config FILE] [--no-open] [--port N] [--mode auto|modern|legacy|sse]
       mcpkit test COLLECTION.json [TARGET] [--config FILE --server NAME] [--mode M]

inspector: a web page to browse, call and debug MCP servers, served on 127.0.0.1 with a random token
  in the URL it prints (and opens, unless --no-open). TARGET is a URL or, after --, a command line; with
  --config every server of an "mcpServers" (or VS Code "servers") file opens in its own tab.
test: runs a collection's steps (calls, reads, lists, with assertions) headless and prints TAP;
  exits 1 when an assertion fails. TARGET (or --config/--server) wins over the collection's "target".
`;

interface InspectorArgs {
  positional: string[];
  command: string[] | undefined;
  config: string | undefined;
  server: string | undefined;
  open: boolean;
  port: number;
  mode: "auto" | "modern" | "legacy" | "sse";
}

function parse(argv: readonly string[]): InspectorArgs {
  const args: InspectorArgs = {
    positional: [],
    command: undefined,
    config: undefined,
    server: undefined,
    open: true,
    port: 0,
    mode: "auto",
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === "--") {
      args.command = argv.slice(i + 1);
      break;
    }
    if (arg === "--config") args.config = value();
    else if (arg === "--server") args.server = value();
    else if (arg === "--no-open") args.open = false;
    else if (arg === "--port") {
      args.port = Number(value());
      if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65_535)
        throw new Error(`--port: invalid port ${argv[i]}`);
    } else if (arg === "--mode") {
      const mode = value();
      if (mode !== "auto" && mode !== "modern" && mode !== "legacy" && mode !== "sse")
        throw new Error(`--mode: ${mode} is not auto, modern, legacy or sse`);
      args.mode = mode;
    } else if (arg.startsWith("--")) throw new Error(`unknown option ${arg}`);
    else args.positional.push(arg);
  }
  return args;
}

/** The servers of a config file as inspector targets (all of them, or the one named). */
async function configTargets(file: string, only: string | undefined, io: CliIo): Promise<InspectorTarget[]> {
  const path = file.startsWith("/") ? file : `${io.cwd}/${file}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read config ${file}: ${(error as Error).message}`);
  }
  const record = (parsed ?? {}) as {
    mcpServers?: Record<string, unknown>;
    servers?: Record<string, unknown>;
  };
  const names = only !== undefined ? [only] : Object.keys(record.mcpServers ?? record.servers ?? {});
  return names.map((name) => {
    const entry = selectServer(parsed, name, io.env);
    if ("url" in entry)
      return {
        kind: "http",
        name,
        url: entry.url,
        mode: entry.type === "sse" ? "sse" : "auto",
        ...(entry.headers ? { headers: entry.headers } : {}),
      };
    return {
      kind: "stdio",
      name,
      command: entry.command,
      args: entry.args ?? [],
      ...(entry.env ? { env: entry.env } : {}),
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
    };
  });
}

async function targetsOf(args: InspectorArgs, positional: string[], io: CliIo): Promise<InspectorTarget[]> {
  const { parseTarget } = await import("@mcpkit/inspector");
  const targets: InspectorTarget[] = [];
  if (args.config !== undefined) targets.push(...(await configTargets(args.config, args.server, io)));
  for (const text of positional) targets.push(parseTarget(text, args.mode));
  if (args.command !== undefined && args.command.length > 0)
    targets.push({ kind: "stdio", command: args.command[0] as string, args: args.command.slice(1) });
  return targets;
}

/** Opens `url` in the desktop's browser, best effort (no browser is not an error: the URL is printed). */
function openBrowser(url: string): void {
  const command =
    process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  try {
    spawn(command, [url], { stdio: "ignore", detached: true })
      .on("error", () => {})
      .unref();
  } catch {
    // The printed URL is enough.
  }
}

/** Options of {@link runInspectorCommand} (for tests and embedding). */
export interface InspectorCommandOptions {
  /** Stops the inspector when aborted (default: the process's SIGINT or SIGTERM). */
  signal?: AbortSignal;
  /** The built page's folder (default: @mcpkit/inspector's own). */
  appDir?: string;
}

/**
 * Runs `mcpkit inspector …`: starts the inspector, prints its URL, and serves until stopped (see
 * {@link InspectorCommandOptions.signal}). Resolves with the exit code.
 */
export async function runInspectorCommand(
  argv: readonly string[],
  io: CliIo,
  options: InspectorCommandOptions = {},
): Promise<number> {
  const { signal } = options;
  if (argv[0] === "--help" || argv[0] === "-h") {
    io.stdout.write(INSPECTOR_USAGE);
    return 0;
  }
  let args: InspectorArgs;
  try {
    args = parse(argv);
  } catch (error) {
    io.stderr.write(`mcpkit inspector: ${(error as Error).message}\n\n${INSPECTOR_USAGE}`);
    return 2;
  }
  try {
    const { startInspector } = await import("@mcpkit/inspector");
    const targets = await targetsOf(args, args.positional, io);
    const inspector = await startInspector({
      targets,
      port: args.port,
      ...(options.appDir === undefined ? {} : { appDir: options.appDir }),
    });
    for (const summary of inspector.initial)
      io.stderr.write(
        `mcpkit inspector: ${summary.label}: ${summary.state}${summary.diagnosis ? ` (${summary.diagnosis.step}: ${summary.diagnosis.summary})` : ""}\n`,
      );
    io.stdout.write(`mcpkit inspector: open ${inspector.url}\n`);
    if (args.open) openBrowser(inspector.url);
    await new Promise<void>((resolve) => {
      if (signal) {
        if (signal.aborted) resolve();
        else signal.addEventListener("abort", () => resolve(), { once: true });
        return;
      }
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
    });
    await inspector.close();
    return 0;
  } catch (error) {
    io.stderr.write(`mcpkit inspector: ${(error as Error).message}\n`);
    return 1;
  }
}

/** Runs `mcpkit test COLLECTION [TARGET]`: TAP on stdout; 0 all passed, 1 a failure, 2 a usage error. */
export async function runTestCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let args: InspectorArgs;
  try {
    args = parse(argv);
    if (args.positional.length === 0) throw new Error("name the collection file");
  } catch (error) {
    io.stderr.write(`mcpkit test: ${(error as Error).message}\n\n${INSPECTOR_USAGE}`);
    return 2;
  }
  try {
    const { parseCollection, runCollection } = await import("@mcpkit/inspector");
    const [file, ...rest] = args.positional as [string, ...string[]];
    const path = file.startsWith("/") ? file : `${io.cwd}/${file}`;
    const collection = parseCollection(JSON.parse(await readFile(path, "utf8")));
    const targets = await targetsOf(args, rest, io);
    const target = targets[0] ?? collection.target;
    if (target === undefined)
      throw new Error(`no server: give a TARGET, --config FILE --server NAME, or a "target" in ${file}`);
    if (targets.length > 1) throw new Error("mcpkit test runs against one server: name one with --server");
    const run = await runCollection(collection, target);
    io.stdout.write(run.tap);
    return run.failed === 0 ? 0 : 1;
  } catch (error) {
    io.stderr.write(`mcpkit test: ${(error as Error).message}\n`);
    return 1;
  }
}
