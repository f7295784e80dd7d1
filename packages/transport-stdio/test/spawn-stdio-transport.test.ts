import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import {
  ConnectionClosedError,
  createPeer,
  FramingError,
  JsonRpcError,
  TransportError,
} from "@mcpkit/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import {
  defaultInheritedEnvNames,
  McpCrashError,
  type SpawnStdioTransportOptions,
  spawnStdioTransport,
} from "../src/index.js";
import { fixture } from "./helpers/fixtures.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => {});
});

/** Resolves with the first stderr line matching `pattern` (bounded by the test timeout). */
function stderrWatcher() {
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  return {
    lines,
    onLine(line: string) {
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.pattern.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    },
    waitFor(pattern: RegExp): Promise<string> {
      const seen = lines.find((l) => pattern.test(l));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
  };
}

async function connect(options: Partial<SpawnStdioTransportOptions> & { fixtureName?: string } = {}) {
  const { fixtureName = "echo-server.ts", ...rest } = options;
  const watcher = stderrWatcher();
  const transport = spawnStdioTransport({
    command: process.execPath,
    args: [await fixture(fixtureName)],
    stderr: watcher.onLine,
    ...rest,
  });
  const peer = createPeer(transport, { timeout: 20_000 });
  cleanups.push(() => peer.close());
  cleanups.push(() => transport.close());
  await peer.start();
  return { transport, peer, watcher };
}

/** Whether `pid` runs: it can be signalled and is not a zombie waiting to be reaped by init. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

/** Live (non-zombie) processes whose process group is `pgid`, read from /proc. */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the parenthesised command: state ppid pgrp ...
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z") members.push(Number(entry));
    } catch {
      // The process went away while we looked.
    }
  }
  return members;
}

describe("spawnStdioTransport", () => {
  it("round-trips requests with a real child and exposes its pid", async () => {
    const { transport, peer } = await connect();
    await expect(peer.request("echo", { a: [1, "two"] })).resolves.toEqual({ a: [1, "two"] });
    const { pid } = (await peer.request("pid")) as { pid: number };
    expect(pid).toBe(transport.pid);
    expect(transport.traits.perRequestStream).toBe(false);
  });

  it("rejects start() with a TransportError naming the command when it does not exist", async () => {
    const transport = spawnStdioTransport({ command: "/nonexistent/mcp-server-xyz", args: ["--stdio"] });
    const peer = createPeer(transport);
    const error = await peer.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain("/nonexistent/mcp-server-xyz");
    expect((error as Error).message).toMatch(/not found/);
    expect((error as Error).cause).toMatchObject({ code: "ENOENT" });
    await expect(transport.send({ jsonrpc: "2.0", method: "x" })).rejects.toBeInstanceOf(
      ConnectionClosedError,
    );
    await transport.close();
  });

  it("rejects start() clearly when cwd does not exist", async () => {
    const transport = spawnStdioTransport({ command: process.execPath, cwd: "/nonexistent/dir-xyz" });
    await expect(transport.start({ onMessage() {}, onInvalid() {}, onClose() {} })).rejects.toThrow(
      /Could not start MCP server .* in \/nonexistent\/dir-xyz/,
    );
  });

  it("fails every pending request with one McpCrashError (signal SIGKILL) when the child is killed mid-request", async () => {
    const { transport, peer, watcher } = await connect();
    const first = peer.request("hang", {});
    await watcher.waitFor(/hang entered/);
    const second = peer.request("hang", {});
    await peer.request("echo", {}); // the second hang is now in the child too
    process.kill(transport.pid!, "SIGKILL");
    const [a, b] = await Promise.all([first.catch((e: unknown) => e), second.catch((e: unknown) => e)]);
    expect(a).toBeInstanceOf(McpCrashError);
    expect(a).toBeInstanceOf(ConnectionClosedError);
    expect(b).toBe(a);
    const crash = a as McpCrashError;
    expect(crash.signal).toBe("SIGKILL");
    expect(crash.exitCode).toBeUndefined();
    expect(crash.message).toMatch(/killed by SIGKILL/);
    expect(crash.message).toMatch(/spawn a new transport/);
    expect(crash.stderrTail).toContain("hang entered");
    await expect(peer.closed).resolves.toBe(crash);
    await expect(transport.closed).resolves.toBe(crash);
    // Later calls fail the same way, at once.
    await expect(peer.request("echo", {})).rejects.toBe(crash);
    await expect(transport.send({ jsonrpc: "2.0", method: "x" })).rejects.toBe(crash);
  });

  it("reports exitCode 3 and the last stderr lines when the child exits on its own", async () => {
    const { peer } = await connect();
    const error = await peer
      .request("exit", { code: 3, lastWords: "fatal: database is locked" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpCrashError);
    const crash = error as McpCrashError;
    expect(crash.exitCode).toBe(3);
    expect(crash.signal).toBeUndefined();
    expect(crash.stderrTail.at(-1)).toBe("fatal: database is locked");
    expect(crash.message).toMatch(/exited with code 3/);
    expect(crash.message).toContain("fatal: database is locked");
  });

  it("reports a broken pipe as a crash instead of hanging or throwing, and stops the child", async () => {
    const { transport, peer, watcher } = await connect({
      fixtureName: "broken-pipe.mjs",
      crashSettleTime: 200,
    });
    await watcher.waitFor(/stdin closed/);
    const pid = transport.pid!;
    const error = await peer.request("anything", { pad: "x".repeat(256 * 1024) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpCrashError);
    const crash = error as McpCrashError;
    expect(crash.cause).toMatchObject({ code: expect.stringMatching(/EPIPE|ECONNRESET/) });
    expect(crash.message).toMatch(/broke its stdin pipe/);
    // The child was alive with its stdout open; the transport tears it down.
    await expect(transport.exited).resolves.toMatchObject({ signal: "SIGTERM" });
    expect(running(pid)).toBe(false);
  });

  it("answers a 17 MiB request line with -32600 and then serves the next request", async () => {
    const { peer } = await connect();
    const huge = "h".repeat(17 * 1024 * 1024);
    const error = await peer.request("echo", { huge }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32600);
    await expect(peer.request("echo", { after: true })).resolves.toEqual({ after: true });
  });

  it("answers a 17 MiB request line from the child with -32600 and lives on", async () => {
    const { peer } = await connect();
    const hugeSeen: unknown[] = [];
    peer.onRequest("huge", (params) => hugeSeen.push(params));
    await expect(peer.request("bigRequest", { mib: 17 })).resolves.toMatchObject({ code: -32600 });
    expect(hugeSeen).toEqual([]);
    await expect(peer.request("echo", { after: 1 })).resolves.toEqual({ after: 1 });
  });

  it("fails only the request whose 17 MiB answer is over the cap, not the connection", async () => {
    const { peer } = await connect();
    const error = await peer.request("bigResult", { mib: 17 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FramingError);
    await expect(peer.request("echo", { after: 2 })).resolves.toEqual({ after: 2 });
    // Under the cap it arrives whole.
    const ok = (await peer.request("bigResult", { mib: 15 })) as { pad: string };
    expect(ok.pad.length).toBe(15 * 1024 * 1024);
  });

  it("keeps stdout for frames: console.log in the served child goes to stderr", async () => {
    const { peer, watcher } = await connect();
    await expect(peer.request("log", { text: "a log line, not JSON" })).resolves.toEqual({ logged: true });
    await watcher.waitFor(/a log line, not JSON/);
    await expect(peer.request("echo", { still: "fine" })).resolves.toEqual({ still: "fine" });
  });

  it("[issue-25.5] by default a spawned server gets no secret of the parent's, only the minimal set plus env", async () => {
    const secrets = { AWS_SECRET_ACCESS_KEY: "aws-secret", GITHUB_TOKEN: "ghp-secret", MCPKIT_X: "x" };
    Object.assign(process.env, secrets, { LANG: process.env.LANG ?? "C.UTF-8" });
    try {
      const { peer } = await connect({ env: { ONLY_THIS: "yes" } });
      const names = [...Object.keys(secrets), "ONLY_THIS", "PATH", "HOME", "LANG"];
      expect(await peer.request("env", { names })).toEqual({
        AWS_SECRET_ACCESS_KEY: null,
        GITHUB_TOKEN: null,
        MCPKIT_X: null,
        ONLY_THIS: "yes",
        PATH: process.env.PATH,
        HOME: process.env.HOME ?? null,
        LANG: process.env.LANG,
      });
      const all = (await peer.request("envNames", {})) as string[];
      expect(
        all.filter((name) => !defaultInheritedEnvNames().includes(name) && name !== "ONLY_THIS"),
      ).toEqual([]);
    } finally {
      for (const name of Object.keys(secrets)) delete process.env[name];
    }
  });

  it("with inheritEnv: true inherits the parent's environment plus env, and never mutates process.env", async () => {
    process.env.MCPKIT_STDIO_TEST_INHERITED = "from-parent";
    const before = { ...process.env };
    try {
      const { peer } = await connect({
        inheritEnv: true,
        env: { MCPKIT_STDIO_TEST_ADDED: "added", HOME: undefined },
      });
      const env = await peer.request("env", {
        names: ["MCPKIT_STDIO_TEST_INHERITED", "MCPKIT_STDIO_TEST_ADDED", "PATH", "HOME"],
      });
      expect(env).toEqual({
        MCPKIT_STDIO_TEST_INHERITED: "from-parent",
        MCPKIT_STDIO_TEST_ADDED: "added",
        PATH: process.env.PATH,
        HOME: null,
      });
      expect(process.env).toEqual(before);
    } finally {
      delete process.env.MCPKIT_STDIO_TEST_INHERITED;
    }
  });

  it("with inheritEnv: false gives only env plus a safe minimum such as PATH", async () => {
    process.env.MCPKIT_STDIO_TEST_SECRET = "must-not-leak";
    try {
      const { peer } = await connect({ inheritEnv: false, env: { ONLY_THIS: "yes" } });
      const env = await peer.request("env", { names: ["MCPKIT_STDIO_TEST_SECRET", "ONLY_THIS", "PATH"] });
      expect(env).toEqual({ MCPKIT_STDIO_TEST_SECRET: null, ONLY_THIS: "yes", PATH: process.env.PATH });
    } finally {
      delete process.env.MCPKIT_STDIO_TEST_SECRET;
    }
  });

  it("close() ends stdin and the server exits on its own within the grace period", async () => {
    const { transport, peer } = await connect();
    await peer.request("echo", {});
    await transport.close();
    // Code 0 and no signal: it left at stdin EOF, before any SIGTERM.
    await expect(transport.exited).resolves.toEqual({ code: 0, signal: null });
    await expect(transport.closed).resolves.toBeUndefined();
  });

  it("leaves no process behind when the server runs through a shell wrapper that forks", async () => {
    const server = await fixture("echo-server.ts");
    // sh forks the server (it has more to do afterwards, so it cannot exec) and a grandchild that
    // ignores both stdin and SIGTERM, the worst case a wrapper can leave.
    const script = `trap '' TERM; sleep 300 & echo "grandchild $!" >&2; "${process.execPath}" "${server}"; echo wrapper-done >&2`;
    const { transport, peer, watcher } = await connect({
      command: "sh",
      args: ["-c", script],
      closeGracePeriod: 500,
      killGracePeriod: 300,
    });
    const { pid: serverPid } = (await peer.request("pid")) as { pid: number };
    const grandchild = Number((await watcher.waitFor(/^grandchild \d+$/)).split(" ")[1]);
    const wrapper = transport.pid!;
    expect(serverPid).not.toBe(wrapper);
    expect(groupMembers(wrapper).sort()).toEqual([wrapper, serverPid, grandchild].sort());
    await transport.close();
    expect(groupMembers(wrapper)).toEqual([]);
    for (const pid of [wrapper, serverPid, grandchild]) expect(running(pid)).toBe(false);
    // The server itself went at stdin EOF; only the TERM-proof grandchild needed SIGKILL.
    expect(watcher.lines).toContain("wrapper-done");
  });

  it("escalates to SIGTERM and then SIGKILL for a child that ignores stdin EOF", async () => {
    const transport = spawnStdioTransport({
      command: "sh",
      args: ["-c", "trap '' TERM; while :; do sleep 1; done"],
      stderr: "ignore",
      closeGracePeriod: 100,
      killGracePeriod: 200,
    });
    cleanups.push(() => transport.close());
    await transport.start({ onMessage() {}, onInvalid() {}, onClose() {} });
    const pid = transport.pid!;
    const started = Date.now();
    await transport.close();
    await expect(transport.exited).resolves.toMatchObject({ signal: "SIGKILL" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(groupMembers(pid)).toEqual([]);
  });

  it("exposes piped stderr as a stream and keeps its tail", async () => {
    const transport = spawnStdioTransport({
      command: "sh",
      args: ["-c", "for i in 1 2 3 4 5; do echo line$i >&2; done; exec cat"],
      stderr: "pipe",
      stderrTailLines: 3,
    });
    cleanups.push(() => transport.close());
    await transport.start({ onMessage() {}, onInvalid() {}, onClose() {} });
    const stream = transport.stderr!;
    let text = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => (text += chunk));
    while (!text.includes("line5")) await once(stream, "data");
    expect(transport.stderrTail()).toEqual(["line3", "line4", "line5"]);
  });
});

describe("serveStdio in a real child", () => {
  it("exits with code 0 when its stdin is closed", async () => {
    const child = spawn(process.execPath, [await fixture("echo-server.ts")], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    cleanups.push(async () => void child.kill("SIGKILL"));
    const exited = once(child, "exit");
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: { hi: 1 } })}\n`);
    const [line] = (await once(child.stdout, "data")) as [Buffer];
    expect(JSON.parse(line.toString())).toEqual({ jsonrpc: "2.0", id: 1, result: { hi: 1 } });
    child.stdin.end();
    await expect(exited).resolves.toEqual([0, null]);
  });
});

describe("spawnStdioTransport lifecycle edges", () => {
  it("close() while start() is spawning stops the child and start() rejects", async () => {
    const transport = spawnStdioTransport({
      command: process.execPath,
      args: [await fixture("echo-server.ts")],
    });
    const starting = transport.start({ onMessage() {}, onInvalid() {}, onClose() {} });
    const closing = transport.close();
    await expect(starting).rejects.toBeInstanceOf(ConnectionClosedError);
    await closing;
    await expect(transport.exited).resolves.toEqual({ code: 0, signal: null });
  });

  it("close() before start() spawns nothing", async () => {
    const transport = spawnStdioTransport({ command: process.execPath });
    await transport.close();
    expect(transport.pid).toBeUndefined();
    await expect(transport.start({ onMessage() {}, onInvalid() {}, onClose() {} })).rejects.toBeInstanceOf(
      ConnectionClosedError,
    );
  });
});
