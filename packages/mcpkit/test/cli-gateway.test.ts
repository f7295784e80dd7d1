// `mcpkit gateway --config FILE`: prints its URL and serves the config's servers until stopped; a config
// error names the file, the key and the problem.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@mcpkit/client";
import { serverEverythingEntry } from "@mcpkit/peers";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runGatewayCommand } from "../src/cli/gateway-command.js";
import { main } from "../src/cli/main.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cli-gateway-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function captureIo() {
  let stdout = "";
  let stderr = "";
  let onLine: ((line: string) => void) | undefined;
  return {
    io: {
      stdout: {
        write: (text: string) => {
          stdout += text;
          onLine?.(stdout);
        },
      },
      stderr: { write: (text: string) => (stderr += text) },
      env: {},
      cwd: dir,
    },
    firstLine: () =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no URL printed in 20 s; stderr: ${stderr}`)),
          20_000,
        );
        onLine = (text) => {
          if (!text.includes("\n")) return;
          clearTimeout(timer);
          resolve(text.split("\n")[0] as string);
        };
      }),
    stderr: () => stderr,
  };
}

it("prints the URL and serves the config's server in both eras", async () => {
  const file = join(dir, "gateway.json");
  await writeFile(
    file,
    JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [serverEverythingEntry(), "stdio"] } },
      gateway: { audit: { target: "off" } },
    }),
  );
  const capture = captureIo();
  const stop = new AbortController();
  const exit = runGatewayCommand(["--config", "gateway.json", "--port", "0"], capture.io, stop.signal);
  try {
    const url = await capture.firstLine();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    for (const era of ["modern", "legacy"] as const) {
      const client = createClient({ name: "cli-gateway-test", version: "1", versionNegotiation: era });
      await client.connect(() => createStreamableHttpClientTransport({ url: new URL(url), era }));
      try {
        expect((await client.callTool("echo", { message: era })).content).toBe(`Echo: ${era}`);
      } finally {
        await client.close();
      }
    }
  } finally {
    stop.abort();
  }
  expect(await exit).toBe(0);
});

it("names the file, the key and the problem of a bad config (exit 2)", async () => {
  const file = join(dir, "bad.json");
  await writeFile(
    file,
    JSON.stringify({ mcpServers: { a: { command: "x" } }, gateway: { upstreams: { a: { era: "new" } } } }),
  );
  const capture = captureIo();
  expect(await main(["gateway", "--config", file], capture.io)).toBe(2);
  expect(capture.stderr()).toBe(
    `mcpkit gateway: ${file}: gateway.upstreams.a.era: must be "auto", "modern" or "legacy", got "new"\n`,
  );
});
