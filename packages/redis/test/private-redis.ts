// A redis-server of one test file's own, on a free loopback port, keeping nothing on disk: for tests that
// count its commands or restart it, which must never happen to the shared Redis other files use.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";

/** Whether `redis-server` can be run here (the reason when not). */
export function redisServerMissing(): string | undefined {
  const probe = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  return probe.error === undefined && probe.status === 0 ? undefined : "redis-server is not on the PATH";
}

/** A free loopback port (taken and given back at once). */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  probe.close();
  await once(probe, "close");
  return port;
}

/** A running private Redis; `stop` and `start` kill and bring it back on the same port. */
export interface PrivateRedis {
  readonly url: string;
  readonly port: number;
  /** Kills it (SIGKILL, as a crash) and waits for the exit. */
  stop(): Promise<void>;
  /** Starts it again (empty: it keeps nothing) and waits until it accepts connections. */
  start(): Promise<void>;
}

/**
 * Starts `redis-server --port N --save "" --appendonly no` and resolves once it accepts connections
 * (bounded: 10 s). Stop it in afterAll.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const started = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    child = started;
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server on ${port} not ready in 10 s`)), 10_000);
      started.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server on ${port} exited (${code}): ${output.slice(-300)}`));
      });
    });
    // Drain its log from now on.
    started.stdout!.resume();
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, "exit");
    running.kill("SIGKILL");
    await exited;
  }

  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start };
}
