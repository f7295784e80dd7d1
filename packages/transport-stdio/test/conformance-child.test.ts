import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Transport } from "@mcpkit/jsonrpc";
import { transportConformance } from "@mcpkit/test-kit";
import { afterAll } from "vitest";
import { spawnStdioTransport } from "../src/index.js";
import { fixture } from "./helpers/fixtures.js";
import { socketServerTransport } from "./helpers/socket-server-transport.js";

const dir = mkdtempSync(join(tmpdir(), "mcpkit-stdio-relay-"));
let counter = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The client is spawnStdioTransport over a real child's pipes; the child (serveStdio + our stream
// transport) relays each message over a Unix socket to the suite's in-process server.
transportConformance("stdio over a real child process", async () => {
  const path = join(dir, `relay-${++counter}.sock`);
  const server = createServer();
  const accepted = new Promise<Socket>((resolve) => server.once("connection", resolve));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const child = spawnStdioTransport({ command: process.execPath, args: [await fixture("relay.ts"), path] });
  // The suite's close test creates requests, awaits close(), and only then attaches its handlers; a
  // close() that waits for the child to exit (ours does) leaves those rejections unhandled for a few
  // ms, which vitest reports. So close() here starts the teardown and `dispose` waits for it.
  // (Reported to the lead: the suite should attach handlers before awaiting close.)
  let teardown: Promise<void> | undefined;
  const client: Transport = {
    traits: child.traits,
    start: (sink) => child.start(sink),
    send: (message, options) => child.send(message, options),
    async close(reason) {
      teardown ??= child.close(reason);
    },
  };
  return {
    client,
    server: socketServerTransport(accepted),
    async dispose() {
      await (teardown ?? child.close());
      await child.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
});
