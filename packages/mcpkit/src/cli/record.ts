import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { type JsonRpcMessage, serializeMessage } from "@mcpkit/jsonrpc";
import { createCassetteRecorder, stringifyCassette } from "@mcpkit/testing";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import type { CassetteArgs } from "./cassette-args.js";
import { modernSendOptions } from "./live-transport.js";

/** The process streams the proxy sits between. */
export interface ProxyIo {
  stdin: Readable;
  stdout: Writable;
  stderr: { write(text: string): unknown };
}

/**
 * Calls `onLine` with each whole line of a byte stream, parsed as JSON (lines that are not JSON are
 * skipped: the proxy forwards them anyway, it only records messages).
 */
function tapLines(onMessage: (value: unknown) => void): (chunk: Buffer) => void {
  let pending: Buffer[] = [];
  return (chunk) => {
    let start = 0;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, i));
      const line = Buffer.concat(pending).toString("utf8").trim();
      pending = [];
      start = i + 1;
      if (line === "") continue;
      try {
        onMessage(JSON.parse(line));
      } catch {
        // Not JSON: not a message, nothing to record.
      }
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  };
}

function target(args: CassetteArgs): string {
  const t = args.target!;
  return t.kind === "url" ? t.url : [t.command, ...t.args].join(" ");
}

/**
 * `mcpkit record`: a recording proxy with stdio in front. Behind it a spawned command (its bytes are
 * piped through untouched both ways, the recorder reads a copy) or a Streamable HTTP URL (each line from
 * stdin becomes one message sent there). The cassette is written when stdin ends, the server exits, or
 * the proxy is told to stop (SIGTERM, SIGINT). Resolves with the exit code.
 */
export function runRecord(args: CassetteArgs, io: ProxyIo): Promise<number> {
  const recorder = createCassetteRecorder({
    redact: args.redact,
    redactKeys: args.redactKeys,
    timings: args.timings,
    target: target(args),
  });
  const started = performance.now();
  const add = (from: "client" | "server") => (value: unknown) =>
    recorder.add(from, value, performance.now() - started);
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    writeFileSync(args.out!, stringifyCassette(recorder.cassette()));
  };
  return args.target!.kind === "command"
    ? recordCommand(args, io, add, write)
    : recordUrl(args, io, add, write);
}

function recordCommand(
  args: CassetteArgs,
  io: ProxyIo,
  add: (from: "client" | "server") => (value: unknown) => void,
  write: () => void,
): Promise<number> {
  const t = args.target as { command: string; args: string[] };
  return new Promise((resolve) => {
    const child = spawn(t.command, t.args, { stdio: ["pipe", "pipe", "inherit"] });
    const fromClient = tapLines(add("client"));
    const fromServer = tapLines(add("server"));
    io.stdin.on("data", (chunk: Buffer) => {
      fromClient(chunk);
      child.stdin.write(chunk);
    });
    io.stdin.on("end", () => child.stdin.end());
    child.stdin.on("error", () => {});
    child.stdout.on("data", (chunk: Buffer) => {
      fromServer(chunk);
      io.stdout.write(chunk);
    });
    const stop = () => {
      write();
      child.kill("SIGTERM");
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    child.on("error", (error) => {
      io.stderr.write(`mcpkit: record: cannot start ${t.command}: ${error.message}\n`);
      write();
      resolve(1);
    });
    child.on("close", (code) => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      write();
      io.stdin.pause();
      resolve(code ?? 0);
    });
  });
}

async function recordUrl(
  args: CassetteArgs,
  io: ProxyIo,
  add: (from: "client" | "server") => (value: unknown) => void,
  write: () => void,
): Promise<number> {
  const url = (args.target as { url: string }).url;
  const transport = createStreamableHttpClientTransport({ url, headers: args.headers });
  const fromServer = add("server");
  const schemas = new Map<string, unknown>();
  let ended: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    ended = resolve;
  });
  await transport.start({
    onMessage(value) {
      fromServer(value);
      rememberSchemas(value, schemas);
      io.stdout.write(`${serializeMessage(value as JsonRpcMessage)}\n`);
    },
    onInvalid() {},
    onClose: () => ended(),
  });
  const fromClient = tapLines((value) => {
    add("client")(value);
    const message = value as JsonRpcMessage;
    const m = message as { method?: unknown; params?: { name?: unknown } };
    const schema = m.method === "tools/call" ? schemas.get(String(m.params?.name)) : undefined;
    transport.send(message, modernSendOptions(message, schema)).catch((error: Error) => {
      io.stderr.write(`mcpkit: record: ${url}: ${error.message}\n`);
    });
  });
  io.stdin.on("data", fromClient);
  io.stdin.on("end", () => ended());
  const stop = () => ended();
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  await done;
  process.off("SIGTERM", stop);
  process.off("SIGINT", stop);
  write();
  await transport.close().catch(() => {});
  io.stdin.pause();
  return 0;
}

function rememberSchemas(value: unknown, schemas: Map<string, unknown>): void {
  const tools = (value as { result?: { tools?: unknown } }).result?.tools;
  if (!Array.isArray(tools)) return;
  for (const tool of tools as Array<{ name?: unknown; inputSchema?: unknown }>)
    if (typeof tool.name === "string") schemas.set(tool.name, tool.inputSchema);
}
