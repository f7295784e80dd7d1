#!/usr/bin/env node
// Throughput of the line framer for 1 MiB and 15 MiB frames, fed in 64 KiB chunks as a pipe
// delivers them. Run after a build: `pnpm --filter @mcpkit/jsonrpc bench:framer`.
// A measurement script, not a test: absolute numbers depend on the machine.
import { createLineFramer } from "../dist/index.js";

const CHUNK = 64 * 1024;

function frameOf(bytes) {
  const payload = "x".repeat(bytes - 60);
  const line = `{"jsonrpc":"2.0","id":1,"result":{"text":"${payload}"}}`;
  return Buffer.from(`${line.padEnd(bytes, " ")}\n`);
}

function run(frame, frames) {
  let seen = 0;
  let chars = 0;
  const framer = createLineFramer({
    onFrame: (line) => {
      seen++;
      chars += line.length;
    },
    onError: (e) => {
      throw e;
    },
  });
  const start = process.hrtime.bigint();
  for (let f = 0; f < frames; f++) {
    for (let off = 0; off < frame.length; off += CHUNK) {
      // A fresh view per chunk, as a stream would hand over.
      framer.push(frame.subarray(off, Math.min(off + CHUNK, frame.length)));
    }
  }
  const ns = Number(process.hrtime.bigint() - start);
  if (seen !== frames || chars === 0) throw new Error("framer lost frames");
  return (frame.length * frames) / (1024 * 1024) / (ns / 1e9);
}

for (const [label, size, frames] of [
  ["1 MiB", 1024 * 1024, 200],
  ["15 MiB", 15 * 1024 * 1024, 12],
]) {
  const frame = frameOf(size);
  run(frame, 2); // warm-up
  const rates = [];
  for (let round = 0; round < 5; round++) rates.push(run(frame, frames));
  rates.sort((a, b) => a - b);
  console.log(
    `line framer, ${label} frames in 64 KiB chunks: median ${rates[2].toFixed(0)} MB/s (min ${rates[0].toFixed(0)}, max ${rates[4].toFixed(0)})`,
  );
}
