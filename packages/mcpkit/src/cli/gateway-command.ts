import type { CliIo } from "./io.js";

/** The usage of `mcpkit gateway`. */
export const GATEWAY_USAGE = `usage: mcpkit gateway --config FILE [--port N] [--host H] [--path /mcp] [--approve TOOL]... [--stdio]

Serves the MCP servers of FILE (an "mcpServers" map, plus a "gateway" key for the gateway's own
settings: prefixes, profiles and API keys, pinning, audit, limits) behind one endpoint that speaks
both protocol eras, and prints its URL. Ctrl-C stops it.

--port N       default 8080 (0 picks a free port)
--host H       default 127.0.0.1
--path P       default /mcp
--approve T    approve the current definition of a tool held back by pinning (repeatable)
--stdio        serve one client on stdin/stdout instead (a desktop host), as the anonymous profile
`;

interface GatewayArgs {
  config: string | undefined;
  port: number;
  host: string;
  path: string;
  approve: string[];
  stdio: boolean;
  help: boolean;
}

function parseGatewayArgs(argv: readonly string[]): GatewayArgs {
  const args: GatewayArgs = {
    config: undefined,
    port: 8080,
    host: "127.0.0.1",
    path: "/mcp",
    approve: [],
    stdio: false,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined || next.startsWith("--")) throw new Error(`${flag} needs a value`);
      return next;
    };
    if (flag === "--config" || flag === "-c") args.config = value();
    else if (flag === "--port") {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 0 || n > 65_535)
        throw new Error("--port needs a port number (0 to 65535)");
      args.port = n;
    } else if (flag === "--host") args.host = value();
    else if (flag === "--path") args.path = value();
    else if (flag === "--approve") args.approve.push(value());
    else if (flag === "--stdio") args.stdio = true;
    else if (flag === "--help" || flag === "-h") args.help = true;
    else throw new Error(`unknown argument for gateway: ${String(flag)}`);
  }
  return args;
}

/**
 * Runs `mcpkit gateway …` (argv without the command word): loads the config, starts every upstream,
 * approves `--approve` tools, and serves until `signal` aborts (SIGINT/SIGTERM when none is given).
 * `@mcpkit/gateway` is imported only here, so the other commands never load it.
 * Returns the exit code: 2 for a usage or config error, 1 when an upstream cannot be started.
 */
export async function runGatewayCommand(
  argv: readonly string[],
  io: CliIo,
  signal?: AbortSignal,
): Promise<number> {
  let args: GatewayArgs;
  try {
    args = parseGatewayArgs(argv);
  } catch (error) {
    io.stderr.write(`mcpkit gateway: ${(error as Error).message}\n${GATEWAY_USAGE}`);
    return 2;
  }
  if (args.help) {
    io.stdout.write(GATEWAY_USAGE);
    return 0;
  }
  if (args.config === undefined) {
    io.stderr.write(`mcpkit gateway: --config FILE is required\n${GATEWAY_USAGE}`);
    return 2;
  }
  const { ConfigError, createGateway, loadGatewayConfig } = await import("@mcpkit/gateway");
  const file = args.config.startsWith("/") ? args.config : `${io.cwd}/${args.config}`;
  let gateway: ReturnType<typeof createGateway>;
  try {
    const config = await loadGatewayConfig(file, io.env);
    gateway = createGateway({
      config,
      onError: (error) => io.stderr.write(`mcpkit gateway: ${error.message}\n`),
    });
  } catch (error) {
    io.stderr.write(`mcpkit gateway: ${(error as Error).message}\n`);
    return error instanceof ConfigError ? 2 : 1;
  }
  try {
    await gateway.start();
    for (const name of args.approve) await gateway.approveTool(name);
    for (const held of gateway.heldTools()) {
      io.stderr.write(
        `mcpkit gateway: tool "${held.name}" is held back (changed since approved); approve it with --approve ${held.name}\n`,
      );
    }
    if (args.stdio) {
      const { serveStdio } = await import("@mcpkit/transport-stdio");
      await serveStdio((transport) => gateway.connect(transport), { exitOnClose: false });
      return 0;
    }
    const endpoint = await gateway.listen({ host: args.host, port: args.port, path: args.path });
    io.stdout.write(`${endpoint.url}\n`);
    await untilStopped(signal);
    return 0;
  } catch (error) {
    io.stderr.write(`mcpkit gateway: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await gateway.close();
  }
}

function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal) {
      if (signal.aborted) return resolve();
      signal.addEventListener("abort", () => resolve(), { once: true });
      return;
    }
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
