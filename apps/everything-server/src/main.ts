// Runs the everything server: `node dist/main.js [stdio]` or `node dist/main.js http [--port N] [--host H]`.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { htmlFromFile } from "@mcpkit/apps/node";
import { serve } from "mcpkit";
import { createEverythingServer } from "./server.js";
import { registerEverythingSkills, SKILLS_DIR } from "./skills.js";

const USAGE = `usage: everything-server [stdio] [--tick-ms N] [--skills DIR]
       everything-server http [--port N] [--host H] [--path /mcp] [--tick-ms N] [--skills DIR]

stdio (default): one client on stdin/stdout; exits when stdin ends.
http: Streamable HTTP, both protocol eras on one endpoint (default http://127.0.0.1:8080/mcp;
      the PORT environment variable sets the port when --port is absent). Ctrl-C stops it.
      With REDIS_URL set, tasks, notifications, resumable streams and legacy sessions live in that
      Redis, so several copies behind a load balancer form one cluster; MCPKIT_STATE_KEYS
      (comma-separated secrets, the first current) is the requestState key ring they share.
--tick-ms: how often everything://counter ticks by itself (default 5000; 0 = never).
--skills: the folder whose subfolders are served as skills (default: the app's skills/ folder).
`;

interface Args {
  transport: "stdio" | "http";
  port: number;
  host: string;
  path: string;
  tickMs: number | undefined;
  skills: string | undefined;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    transport: "stdio",
    port: process.env.PORT === undefined ? 8080 : Number(process.env.PORT),
    host: "127.0.0.1",
    path: "/mcp",
    tickMs: undefined,
    skills: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === "stdio" || arg === "http") args.transport = arg;
    else if (arg === "--port") args.port = Number(value());
    else if (arg === "--host") args.host = value();
    else if (arg === "--path") args.path = value();
    else if (arg === "--tick-ms") args.tickMs = Number(value());
    else if (arg === "--skills") args.skills = value();
    else if (arg === "--help" || arg === "-h") {
      process.stdout.write(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument: ${arg}`);
  }
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65_535) {
    throw new Error(`invalid port: ${String(args.port)}`);
  }
  if (args.tickMs !== undefined && !(args.tickMs >= 0))
    throw new Error(`invalid --tick-ms: ${String(args.tickMs)}`);
  return args;
}

let args: Args;
try {
  args = parseArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`everything-server: ${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}

/**
 * The Redis stores when REDIS_URL is set (loaded only then): one instance of a cluster whose copies share
 * REDIS_URL and MCPKIT_STATE_KEYS (and MCPKIT_REDIS_PREFIX, default "mcpkit:"). `serve` closes it.
 */
async function clusterStore() {
  const url = process.env.REDIS_URL;
  if (url === undefined || url === "") return undefined;
  const { redisStore } = await import("@mcpkit/redis");
  const stateKeys = process.env.MCPKIT_STATE_KEYS;
  const prefix = process.env.MCPKIT_REDIS_PREFIX;
  const store = await redisStore({
    url,
    ...(stateKeys !== undefined && stateKeys !== "" && { stateKeys }),
    ...(prefix !== undefined && prefix !== "" && { prefix }),
  });
  process.stderr.write(`everything-server: shared state in Redis at ${url}\n`);
  return store;
}

// The counter app's view as the build made it (dist/view.html beside dist/main.js); a copy of this script
// without it serves the view written by hand.
const viewFile = fileURLToPath(new URL("./view.html", import.meta.url));
const server = createEverythingServer({
  ...(args.tickMs !== undefined && { tickMs: args.tickMs }),
  ...(existsSync(viewFile) && { appHtml: htmlFromFile(viewFile) }),
});
// The app's own skills folder is optional (a copy of this script moved away from the app has none); a
// folder named with --skills must be there.
if (args.skills !== undefined || existsSync(SKILLS_DIR)) {
  try {
    await registerEverythingSkills(server, args.skills);
  } catch (error) {
    process.stderr.write(`everything-server: ${(error as Error).message}\n`);
    process.exit(1);
  }
} else process.stderr.write(`everything-server: no skills folder at ${SKILLS_DIR}; serving no skills\n`);
if (args.transport === "stdio") {
  // stdout carries the protocol; anything else goes to stderr.
  await serve(server, { transport: "stdio" });
} else {
  const store = await clusterStore();
  await serve(server, {
    transport: "http",
    host: args.host,
    port: args.port,
    path: args.path,
    onListening: (url) => process.stderr.write(`everything-server: serving MCP on ${url}\n`),
    ...(store !== undefined && { store }),
  });
}
await server.close();
