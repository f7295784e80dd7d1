// Test support: the fixture servers as real processes (one per instance of a cluster), started and killed.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";

/** One fixture-server process. */
export interface Instance {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:PORT`, the origin of the URL it printed. */
  readonly url: string;
  /** What it wrote on stderr so far; empty unless `captureStderr` (otherwise stderr is inherited). */
  stderr(): string;
}

/**
 * Starts `node <entry>` with `env` added to this process's and resolves once it prints its URL as the
 * first thing on stdout; rejects (and kills it) if it exits first or prints nothing within 15 s.
 */
export async function startInstance(
  entry: string,
  env: Record<string, string>,
  options: { captureStderr?: boolean } = {},
): Promise<Instance> {
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", options.captureStderr ? "pipe" : "inherit"],
  });
  let err = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const [line] = (await Promise.race([
      once(child.stdout!, "data"),
      once(child, "exit").then(() =>
        Promise.reject(new Error(`instance ${env.INSTANCE ?? ""} exited: ${err}`)),
      ),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`instance ${env.INSTANCE ?? ""} did not start`)), 15_000);
      }),
    ])) as [Buffer];
    return { child, url: new URL(line.toString().trim()).origin, stderr: () => err };
  } catch (error) {
    // A process that never came up is not left behind for the caller to find.
    child.kill("SIGKILL");
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Kills a process at once (SIGKILL, as a crash) and waits for it to be gone; one already gone is left. */
export async function killInstance(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}
