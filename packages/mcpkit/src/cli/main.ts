import { readFile } from "node:fs/promises";
import { createOAuthProvider } from "@mcpkit/auth";
import { createFileTokenStore, createLoopbackRedirect } from "@mcpkit/auth/node";
import type { Client } from "@mcpkit/client";
import { spawnStdioTransport } from "@mcpkit/transport-stdio";
import { selectServer } from "../config.js";
import { type ConnectTarget, type ConnectTargetOptions, connect } from "../connect.js";
import { type CliArgs, parseArgs, UsageError } from "./args.js";
import { isCassetteCommand } from "./cassette-args.js";
import { runCassetteCommand } from "./cassette-commands.js";
import { runCommand } from "./commands.js";
import { errorText } from "./error-text.js";
import { runGatewayCommand } from "./gateway-command.js";
import { HELP } from "./help.js";
import { runInspectorCommand, runTestCommand } from "./inspector-command.js";
import type { CliIo } from "./io.js";
import { watchForJunk } from "./junk-watch.js";
import { terminalSafe } from "./terminal-text.js";
import { redactTraceArguments } from "./trace-redaction.js";

export type { CliIo } from "./io.js";

function out(io: CliIo, text: string): void {
  io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

async function resolveTarget(args: CliArgs, io: CliIo): Promise<[ConnectTarget, ConnectTargetOptions]> {
  // Without -v a server's stderr is not shown, but a callback keeps its last lines: a server that dies
  // at start is reported with them (its "Cannot find module …" is the cause a user needs to see).
  const options: ConnectTargetOptions = { stderr: args.verbose ? "inherit" : () => {} };
  if (Object.keys(args.headers).length > 0) options.headers = args.headers;
  // The token from the environment keeps it out of the process list; the flag, when given, wins.
  const bearerToken = args.bearerToken ?? (args.oauth ? undefined : nonEmpty(io.env.MCPKIT_BEARER_TOKEN));
  if (bearerToken !== undefined) options.bearerToken = bearerToken;
  if (args.timeout !== undefined) options.requestTimeout = args.timeout;
  const connectTimeout = args.connectTimeout ?? args.timeout;
  if (connectTimeout !== undefined) options.connectTimeout = connectTimeout;
  // The client's wire trace, on stderr so that stdout stays the command's output (and --json parsable);
  // MCPKIT_DEBUG=wire comes through here too, so argument values are redacted either way.
  if (args.trace || wireTraceAsked(io.env)) {
    options.trace = (line) =>
      io.stderr.write(`${terminalSafe(args.traceArguments ? line : redactTraceArguments(line))}\n`);
  }
  const target = args.target!;
  if (target.kind === "url") {
    if (args.oauth) options.oauth = await oauthFor(target.url, args, io);
    return [target.url, options];
  }
  if (target.kind === "command") return [{ command: target.command, args: target.args }, options];
  const file = target.file.startsWith("/") ? target.file : `${io.cwd}/${target.file}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new UsageError(`cannot read config ${target.file}: ${(error as Error).message}`);
  }
  if (target.server === undefined) {
    const names = serverNames(parsed);
    throw new UsageError(
      `--config needs --server NAME (${target.file} has: ${names.length > 0 ? names.join(", ") : "no servers"})`,
    );
  }
  let server: ReturnType<typeof selectServer>;
  try {
    server = selectServer(parsed, target.server, io.env);
  } catch (error) {
    // A name that is not in the file is the user's to fix: a usage error, like every other.
    throw new UsageError(`${target.file}: ${(error as Error).message}`);
  }
  if ("url" in server) {
    if (server.headers) options.headers = { ...server.headers, ...options.headers };
    return [server.url, options];
  }
  return [
    {
      command: server.command,
      args: server.args ?? [],
      ...(server.env ? { env: server.env } : {}),
      ...(server.cwd ? { cwd: server.cwd } : {}),
    },
    options,
  ];
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** Whether `MCPKIT_DEBUG` asks for the wire trace (`wire` or `*` among its comma-separated words). */
function wireTraceAsked(env: CliIo["env"]): boolean {
  return (env.MCPKIT_DEBUG ?? "").split(",").some((word) => word.trim() === "wire" || word.trim() === "*");
}

/** The server names of a parsed `mcpServers` / `servers` config file (none when it has neither). */
function serverNames(config: unknown): string[] {
  const record = (typeof config === "object" && config !== null ? config : {}) as Record<string, unknown>;
  const servers = record.mcpServers ?? record.servers;
  return typeof servers === "object" && servers !== null ? Object.keys(servers) : [];
}

// The loopback listener of the CLI's sign-in, closed when the command ends.
let redirectListener: { close(): Promise<void> } | undefined;

async function oauthFor(url: string, args: CliArgs, io: CliIo) {
  const redirect = await createLoopbackRedirect({
    ...(args.redirectPort === undefined ? {} : { port: args.redirectPort }),
    openUrl: (authorizationUrl) => {
      io.stderr.write(`mcpkit: sign in by opening this URL in a browser:\n  ${authorizationUrl.href}\n`);
    },
  }).catch((error: unknown) => {
    if ((error as { code?: unknown }).code !== "EADDRINUSE") throw error;
    throw new Error(
      `--redirect-port ${args.redirectPort}: port ${args.redirectPort} on 127.0.0.1 is already in use (EADDRINUSE)`,
      { cause: error },
    );
  });
  redirectListener = redirect;
  const clientSecret = args.clientSecret ?? nonEmpty(io.env.MCPKIT_CLIENT_SECRET);
  return createOAuthProvider({
    serverUrl: url,
    // Logins persist between runs: a stored token is reused, an expired one refreshed before a new sign-in.
    store: createFileTokenStore({ env: io.env }),
    redirectUri: redirect.redirectUri,
    onRedirect: (authorizationUrl, context) => redirect.onRedirect(authorizationUrl, context),
    clientMetadata: { client_name: "mcpkit CLI", redirect_uris: [redirect.redirectUri] },
    ...(args.clientId && args.issuer
      ? {
          client: {
            // Tied to its authorization server: the id and secret are never sent to another one.
            issuer: args.issuer,
            clientId: args.clientId,
            ...(clientSecret ? { clientSecret } : {}),
          },
        }
      : {}),
  });
}

async function logout(args: CliArgs, io: CliIo): Promise<number> {
  try {
    const store = createFileTokenStore({ env: io.env });
    const url = args.target?.kind === "url" ? args.target.url : undefined;
    const removed = await store.forget(url);
    out(
      io,
      `${removed === 0 ? "no stored login" : `removed ${removed} stored login${removed === 1 ? "" : "s"}`}${url ? ` for ${url}` : ""}`,
    );
    return 0;
  } catch (error) {
    io.stderr.write(`mcpkit: ${(error as Error).message}\n`);
    return 1;
  }
}

/**
 * Connects as `connect()` does; a spawned server is watched for output that is all junk (see
 * `watchForJunk`) unless `--connect-timeout` says how long to wait.
 */
async function connectTo(
  target: ConnectTarget,
  options: ConnectTargetOptions,
  args: CliArgs,
  commandLine: string | undefined,
): Promise<Client & AsyncDisposable> {
  if (typeof target !== "object" || !("command" in target) || args.connectTimeout !== undefined)
    return connect(target, options);
  const { stderr, inheritEnv, ...clientOptions } = options;
  // The same spawn as connect()'s for a command target (its environment rules are the transport's).
  const transport = spawnStdioTransport({
    command: target.command,
    args: target.args ?? [],
    stderr: stderr ?? "inherit",
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    ...(target.env === undefined ? {} : { env: target.env }),
    ...(inheritEnv === undefined ? {} : { inheritEnv }),
  });
  const watch = watchForJunk(transport, `server "${commandLine ?? target.command}"`);
  try {
    return await connect(watch.transport, { ...clientOptions, signal: watch.signal });
  } finally {
    watch.stop();
  }
}

/**
 * Runs the CLI with the given arguments (without `node` and the script). Resolves with the exit code:
 * 0 success, 1 a failure (including a tool that reported an error), 2 a usage error. Never throws;
 * errors are one readable line on stderr, `--verbose` adds the detail.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  if (isCassetteCommand(argv[0])) return runCassetteCommand(argv, io);
  if (argv[0] === "gateway") return runGatewayCommand(argv.slice(1), io);
  if (argv[0] === "inspector") return runInspectorCommand(argv.slice(1), io);
  if (argv[0] === "test") return runTestCommand(argv.slice(1), io);
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    io.stderr.write(`mcpkit: ${(error as Error).message}\n`);
    return 2;
  }
  for (const notice of args.notices) io.stderr.write(`mcpkit: ${notice}\n`);
  if (args.command === "version") {
    out(io, "mcpkit 0.1.0");
    return 0;
  }
  if (args.command === "help") {
    out(io, HELP[args.helpFor ?? "main"]);
    return 0;
  }
  if (args.command === "logout") return logout(args, io);
  let client: (Client & AsyncDisposable) | undefined;
  let commandLine: string | undefined;
  try {
    const [target, options] = await resolveTarget(args, io);
    if (typeof target === "object" && "command" in target)
      commandLine = [target.command, ...(target.args ?? [])].join(" ");
    client = await connectTo(target, options, args, commandLine);
    return await runCommand(client, args, io);
  } catch (error) {
    const e = error as Error & { code?: number; cause?: unknown };
    // An error's text may be the server's (a tool's message, a crashed server's stderr): made safe too.
    io.stderr.write(`mcpkit: ${terminalSafe(errorText(error, commandLine))}\n`);
    if (args.verbose) {
      io.stderr.write(`${e.stack ?? ""}\n`);
      if (e.cause) io.stderr.write(`caused by: ${String((e.cause as Error).stack ?? e.cause)}\n`);
    }
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await client?.close().catch(() => {});
    await redirectListener?.close().catch(() => {});
    redirectListener = undefined;
  }
}
