// Sequential request round trips per second over a real child process: our transport + Peer on
// both ends, next to a raw-pipe baseline (hand-written newline JSON client and child, no library).
// Run: pnpm --filter @mcpkit/transport-stdio bench   (env ROUNDS, RUNS to change the sizes)
import { type ChildProcess, spawn } from "node:child_process";
import { createPeer } from "@mcpkit/jsonrpc";
import { spawnStdioTransport } from "../src/index.js";
import { fixture } from "../test/helpers/fixtures.js";

const ROUNDS = Number(process.env.ROUNDS ?? 10_000);
const WARMUP = 2_000;
const RUNS = Number(process.env.RUNS ?? 7);
const params = { message: "hello", n: 42 };

async function ours(server: string): Promise<number> {
  const transport = spawnStdioTransport({ command: process.execPath, args: [server], stderr: "inherit" });
  const peer = createPeer(transport);
  await peer.start();
  try {
    for (let i = 0; i < WARMUP; i++) await peer.request("echo", params);
    const started = performance.now();
    for (let i = 0; i < ROUNDS; i++) await peer.request("echo", params);
    return ROUNDS / ((performance.now() - started) / 1000);
  } finally {
    await peer.close();
    await transport.close();
  }
}

async function raw(server: string): Promise<number> {
  const child: ChildProcess = spawn(process.execPath, [server], { stdio: ["pipe", "pipe", "inherit"] });
  let buffer = "";
  let waiting: ((line: string) => void) | undefined;
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    buffer += chunk;
    const nl = buffer.indexOf("\n");
    if (nl !== -1 && waiting) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const wake = waiting;
      waiting = undefined;
      wake(line);
    }
  });
  let id = 0;
  const call = () =>
    new Promise<unknown>((resolve) => {
      waiting = (line) => resolve(JSON.parse(line));
      child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "echo", params })}\n`);
    });
  try {
    for (let i = 0; i < WARMUP; i++) await call();
    const started = performance.now();
    for (let i = 0; i < ROUNDS; i++) await call();
    return ROUNDS / ((performance.now() - started) / 1000);
  } finally {
    child.stdin!.end();
    await new Promise((r) => child.once("exit", r));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ourServer = await fixture("echo-server.ts");
const rawServer = await fixture("raw-echo.mjs");
const oursRuns: number[] = [];
const rawRuns: number[] = [];
const mixedRuns: number[] = [];
for (let run = 0; run < RUNS; run++) {
  rawRuns.push(await raw(rawServer));
  oursRuns.push(await ours(ourServer));
  mixedRuns.push(await ours(rawServer));
}
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
console.log(
  `sequential round trips over a real child, ${ROUNDS} requests, median of ${RUNS} runs (Node ${process.version})`,
);
console.log(
  `  raw pipes (hand-written client + child):      ${fmt(median(rawRuns))} req/s   runs: ${rawRuns.map(fmt).join(", ")}`,
);
console.log(
  `  mcpkit client -> raw child:                   ${fmt(median(mixedRuns))} req/s   runs: ${mixedRuns.map(fmt).join(", ")}`,
);
console.log(
  `  mcpkit both ends (transport + Peer, serveStdio): ${fmt(median(oursRuns))} req/s   runs: ${oursRuns.map(fmt).join(", ")}`,
);
console.log(`  ratio mcpkit/raw: ${(median(oursRuns) / median(rawRuns)).toFixed(2)}`);
process.exit(0);
