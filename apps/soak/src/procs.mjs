// Starting the soak's servers: each in its own process group, so the harness always ends what it started
// (and nothing else); HTTP servers announce their port on their first stdout line.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { spawnAnnounced } from "../../../scripts/announced-process.mjs";

/** Folder of the soak app (apps/soak). */
export const appDir = fileURLToPath(new URL("..", import.meta.url));

/** The argv of `impl`'s server program with `settings`. */
export function serverArgv(impl, settings) {
  const program = fileURLToPath(new URL(`./servers/${impl}.mjs`, import.meta.url));
  return [process.execPath, "--expose-gc", program, JSON.stringify(settings)];
}

/**
 * Starts an HTTP server program; resolves `{ url, base, close(), stderr() }` once it announced its port.
 * `close()` ends its process group and waits for the exit.
 */
export async function startHttpServer(impl, settings, { timeoutMs = 20_000 } = {}) {
  const [command, ...args] = serverArgv(impl, { ...settings, transport: "http" });
  const server = await spawnAnnounced(command, args, { name: impl, cwd: appDir, timeoutMs });
  const base = `http://127.0.0.1:${server.port}`;
  return { url: `${base}/mcp`, base, close: server.close, stderr: server.stderr, pid: server.pid };
}

/** Spawns a stdio server program; the caller talks over its stdin/stdout. */
export function spawnStdioServer(impl) {
  const [command, ...args] = serverArgv(impl, { transport: "stdio" });
  return spawn(command, args, { cwd: appDir, stdio: ["pipe", "pipe", "pipe"] });
}
