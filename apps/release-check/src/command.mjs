// One way to run a command in the release check: bounded in time, output captured, and a failure that
// names the command, its folder and the tail of what it printed.
import { execFile } from "node:child_process";

/**
 * Runs `cmd args` in `cwd` and resolves with its stdout; rejects (one line naming the command, then its
 * output's tail) when it exits non-zero or runs past `timeout` ms.
 */
export function run(cmd, args, { cwd, env = {}, timeout = 300_000 } = {}) {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { cwd, env: { ...process.env, ...env }, timeout, killSignal: "SIGKILL", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const why = error.killed ? `timed out after ${timeout} ms` : `exited with ${error.code}`;
        const tail = `${stdout}\n${stderr}`.trim().split("\n").slice(-40).join("\n");
        reject(new Error(`\`${cmd} ${args.join(" ")}\` in ${cwd} ${why}\n${tail}`));
      },
    );
  });
}
