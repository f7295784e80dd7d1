import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";

/** One everything-server process of the cluster. */
export interface Instance {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
}

/**
 * Starts `node <entry> http --port 0 --tick-ms 0` with `env` and resolves once it prints the URL it
 * serves (bounded: 15 s). Its other stderr lines are passed through, prefixed.
 */
export async function startInstance(
  entry: string,
  index: number,
  env: Record<string, string>,
): Promise<Instance> {
  const child = spawn(process.execPath, [entry, "http", "--port", "0", "--tick-ms", "0"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let text = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`instance ${index} did not start in 15 s: ${text}`)),
      15_000,
    );
    child.stderr!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const match = /serving MCP on (\S+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`instance ${index} exited (${code}): ${text}`));
    });
  });
  return { child, origin: new URL(url).origin };
}

/** Kills an instance at once (SIGKILL, as a crash) and waits for it to be gone. */
export async function killInstance(instance: Instance): Promise<void> {
  const { child } = instance;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}
