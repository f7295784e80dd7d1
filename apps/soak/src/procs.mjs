// Starting the soak's servers: each in its own process group, so the harness always ends what it started
// (and nothing else); HTTP servers announce their port on their first stdout line.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Folder of the soak app (apps/soak). */
export const appDir = fileURLToPath(new URL("..", import.meta.url));

/** The argv of `impl`'s server program with `settings`. */
export function serverArgv(impl, settings) {
  const program = fileURLToPath(new URL(`./servers/${impl}.mjs`, import.meta.url));
  return [process.execPath, "--expose-gc", program, JSON.stringify(settings)];
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {}
}

/**
 * Starts an HTTP server program; resolves `{ url, base, close(), stderr() }` once it announced its port.
 * `close()` ends its process group and waits for the exit.
 */
export function startHttpServer(impl, settings, { timeoutMs = 20_000 } = {}) {
  const [command, ...args] = serverArgv(impl, { ...settings, transport: "http" });
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: appDir, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const exited = new Promise((r) => child.on("exit", r));
    const close = async () => {
      killGroup(child, "SIGTERM");
      const t = setTimeout(() => killGroup(child, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(t);
    };
    const timer = setTimeout(() => {
      close();
      reject(new Error(`${impl} server did not announce a port in ${timeoutMs} ms: ${err.slice(-400)}`));
    }, timeoutMs);
    child.stderr.on("data", (c) => {
      err += c;
      if (err.length > 65_536) err = err.slice(-32_768);
    });
    const onData = (c) => {
      out += c;
      const nl = out.indexOf("\n");
      if (nl === -1) return;
      child.stdout.off("data", onData);
      child.stdout.resume();
      clearTimeout(timer);
      const { port } = JSON.parse(out.slice(0, nl));
      const base = `http://127.0.0.1:${port}`;
      resolve({ url: `${base}/mcp`, base, close, stderr: () => err, pid: child.pid });
    };
    child.stdout.on("data", onData);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** Spawns a stdio server program; the caller talks over its stdin/stdout. */
export function spawnStdioServer(impl) {
  const [command, ...args] = serverArgv(impl, { transport: "stdio" });
  return spawn(command, args, { cwd: appDir, stdio: ["pipe", "pipe", "pipe"] });
}
