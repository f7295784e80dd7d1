// Starting the measured programs: every measurement gets fresh processes, each in its own process group
// so that the harness can always end what it started (and nothing else).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { killGroup, spawnAnnounced } from "../../../scripts/announced-process.mjs";

/** Folder of the bench app (apps/bench). */
export const appDir = fileURLToPath(new URL("..", import.meta.url));

/** Absolute path of one program of one implementation. */
export function programPath(impl, program) {
  return fileURLToPath(new URL(`../impl/${impl}/${program}.mjs`, import.meta.url));
}

/** The command that starts `impl`'s server with `spec`, pinned to the server core. */
export function serverCommand(impl, spec, pin, nodeFlags = []) {
  const argv = [
    ...pin.server,
    process.execPath,
    ...nodeFlags,
    programPath(impl, "server"),
    JSON.stringify(spec),
  ];
  return { command: argv[0], args: argv.slice(1) };
}

/**
 * Runs a program to completion and returns its last stdout line parsed as JSON (or an error object).
 * Killed (its whole process group) after `timeoutMs`.
 */
export function runProgram(argv, { timeoutMs, cwd = appDir, env = process.env }) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => {
      err += c;
      if (err.length > 8192) err = err.slice(-4096);
    });
    const timer = setTimeout(() => killGroup(child, "SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ ok: false, error: `spawn failed: ${error.message}`, harness: true });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      // Whatever the program left behind in its group (a stdio server it spawned) goes too.
      killGroup(child, "SIGKILL");
      const line = out.trim().split("\n").pop() ?? "";
      let parsed;
      try {
        parsed = JSON.parse(line);
      } catch {
        const why = signal ? `killed by ${signal}` : `exit code ${code}`;
        resolve({ ok: false, error: `no result (${why}): ${tail(err) || tail(out)}`, harness: true });
        return;
      }
      if (!parsed.ok && err.trim()) parsed.stderr = tail(err);
      resolve(parsed);
    });
  });
}

function tail(text) {
  return text.trim().split("\n").slice(-6).join(" | ").slice(-600);
}

/**
 * Starts an HTTP server program and waits for the port it announces on its first stdout line.
 * Resolves { url, close() }; close() ends its process group and waits for the exit.
 */
export function startHttpServer(
  impl,
  spec,
  pin,
  { timeoutMs = 20_000, env = process.env, nodeFlags = [], command: argv } = {},
) {
  // nodeFlags: `--profile` makes HTTP servers write CPU profiles too (they exit cleanly on SIGTERM).
  // argv: another program that announces its port the same way (the scale-out rows' proxy).
  const { command, args } = argv
    ? { command: argv[0], args: argv.slice(1) }
    : serverCommand(impl, spec, pin, nodeFlags);
  return spawnAnnounced(command, args, {
    name: impl,
    cwd: appDir,
    env,
    timeoutMs,
    killGraceMs: 10_000,
    stderrCap: 8192,
  }).then((server) => ({
    url: `http://127.0.0.1:${server.port}/mcp`,
    close: server.close,
    stderr: server.stderr,
  }));
}
