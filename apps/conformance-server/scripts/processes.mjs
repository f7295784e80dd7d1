// Child-process helpers of the conformance run scripts: a free loopback port, waiting for a child to
// listen on it, running a command to its exit, stopping children.
import { spawn } from "node:child_process";
import net from "node:net";

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once `port` accepts a connection; rejects when `child` exits first or `timeoutMs` passes. */
export function waitForPort(port, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) {
        reject(new Error(`the server exited with code ${child.exitCode} before listening`));
        return;
      }
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve();
      });
      socket.once("error", () => {
        socket.destroy();
        if (Date.now() > deadline)
          reject(new Error(`nothing listened on port ${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** Runs a command in `cwd` with inherited output; resolves with its exit code (1 when killed). */
export function run(command, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", cwd });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** SIGTERM to every child still running (SIGKILL after 5 s); resolves once all exited. */
export async function stopAll(children) {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }),
  );
}
