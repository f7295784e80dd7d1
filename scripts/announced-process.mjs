// Starting a server program that announces its port as JSON (`{"port":N}`) on its first stdout line, in a
// process group of its own, so the harness always ends what it started (and nothing else). Shared by the
// bench and the soak.
import { spawn } from "node:child_process";

/** Sends `signal` to the child's whole process group; a group already gone is not an error. */
export function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {}
}

/**
 * Spawns `command args` and resolves `{ port, close(), stderr(), pid }` once it announced its port.
 * `close()` sends SIGTERM to the group, SIGKILL after `killGraceMs`, and waits for the exit. Rejects, naming
 * `name` and the tail of its stderr, when it announced nothing in `timeoutMs`, printed something that is not
 * the announcement, or exited first.
 */
export function spawnAnnounced(
  command,
  args,
  { name, cwd, env = process.env, timeoutMs = 20_000, killGraceMs = 5_000, stderrCap = 65_536 },
) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const exited = new Promise((r) => child.on("exit", r));
    const close = async () => {
      killGroup(child, "SIGTERM");
      const t = setTimeout(() => killGroup(child, "SIGKILL"), killGraceMs);
      await exited;
      clearTimeout(t);
    };
    const timer = setTimeout(() => {
      close();
      reject(new Error(`${name} server did not announce a port in ${timeoutMs} ms: ${err.slice(-400)}`));
    }, timeoutMs);
    child.stderr.on("data", (c) => {
      err += c;
      if (err.length > stderrCap) err = err.slice(-stderrCap / 2);
    });
    const onData = (c) => {
      out += c;
      const nl = out.indexOf("\n");
      if (nl === -1) return;
      child.stdout.off("data", onData);
      child.stdout.resume();
      clearTimeout(timer);
      try {
        const { port } = JSON.parse(out.slice(0, nl));
        resolve({ port, close, stderr: () => err, pid: child.pid });
      } catch {
        close();
        reject(new Error(`${name} server printed ${out.slice(0, 200)}`));
      }
    };
    child.stdout.on("data", onData);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} server exited (${code}) before announcing a port: ${err.slice(-400)}`));
    });
  });
}
