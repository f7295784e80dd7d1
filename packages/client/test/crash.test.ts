// Crash tests over a real child process (an official SDK v1 server on real pipes): SIGKILL mid-call, an
// exit code mid-call, respawn through a factory, and a timed-out call that leaves the session healthy.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConnectionClosedError, TimeoutError } from "@mcpkit/jsonrpc";
import { McpCrashError, type StdioClientTransport, spawnStdioTransport } from "@mcpkit/transport-stdio";
import { afterEach, describe, expect, it } from "vitest";
import { type Client, createClient } from "../src/index.js";

const server = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "sdk-v1-server.mjs");
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function spawned(): { factory: () => StdioClientTransport; all: StdioClientTransport[] } {
  const all: StdioClientTransport[] = [];
  return {
    all,
    factory: () => {
      const t = spawnStdioTransport({
        command: process.execPath,
        args: [server],
        stderr: "pipe",
        crashSettleTime: 2000,
        closeGracePeriod: 300,
      });
      all.push(t);
      return t;
    },
  };
}

async function connect(autoRespawn = false) {
  const children = spawned();
  const client: Client = createClient({ name: "crash", version: "1", autoRespawn });
  cleanup.push(() => client.close());
  await client.connect(children.factory);
  return { client, children };
}

/** Resolves once the server has the call in hand (it answers `pid` only after earlier lines were read). */
async function pidOf(client: Client): Promise<number> {
  return Number((await client.callTool("pid")).content);
}

describe("a stdio server that dies", () => {
  it("SIGKILL mid-call rejects every pending call with McpCrashError naming the signal", async () => {
    const { client } = await connect();
    const pid = await pidOf(client);
    const pending = [client.callTool("slow"), client.callTool("slow")];
    // Both calls were written before `pid` answers, so they are in flight at the server.
    await pidOf(client);
    process.kill(pid, "SIGKILL");
    const errors = await Promise.all(pending.map((p) => p.catch((e) => e)));
    for (const error of errors) {
      expect(error).toBeInstanceOf(McpCrashError);
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect(error.signal).toBe("SIGKILL");
    }
    // Without autoRespawn the next call says how to recover.
    const next = await client.callTool("pid").catch((e) => e);
    expect(next).toBeInstanceOf(ConnectionClosedError);
    expect(next.message).toContain("autoRespawn");
    expect(next.cause).toBe(errors[0]);
  });

  it("an exit mid-call reports the exit code", async () => {
    const { client } = await connect();
    const error = await client.callTool("exit", { code: 7 }).catch((e) => e);
    expect(error).toBeInstanceOf(McpCrashError);
    expect(error.exitCode).toBe(7);
  });

  it("with autoRespawn the next call spawns a new server through the factory, with a fresh handshake", async () => {
    const { client, children } = await connect(true);
    const first = await pidOf(client);
    const pending = client.callTool("slow");
    await pidOf(client);
    process.kill(first, "SIGKILL");
    await expect(pending).rejects.toBeInstanceOf(McpCrashError);
    const second = await pidOf(client);
    expect(second).not.toBe(first);
    expect(children.all).toHaveLength(2);
    expect(client.era).toBe("legacy");
    expect((await client.callTool("add", { a: 1, b: 1 })).structured).toEqual({ sum: 2 });
    // The dead child is gone; the new one is alive until close.
    await children.all[0]!.exited;
  });

  it("a slow call with a timeout is cancelled and the next call is fine", async () => {
    const { client } = await connect();
    const error = await client.callTool("slow", {}, { timeout: 150 }).catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((await client.callTool("add", { a: 20, b: 22 })).structured).toEqual({ sum: 42 });
  });

  it("close() ends the child process", async () => {
    const { client, children } = await connect();
    await pidOf(client);
    await client.close();
    const exit = await children.all[0]!.exited;
    expect(exit.code !== null || exit.signal !== null).toBe(true);
  });
});
