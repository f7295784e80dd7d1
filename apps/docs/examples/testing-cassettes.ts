// Cassettes (`@mcpkit/testing`): record an MCP session once, then test against the recording — no server
// process, no network, the same answers — and check that the live server still answers as recorded.
// Here with node:test and node:assert, as a test file of your own would be. The same from a shell, with
// any host or server: `mcpkit record --out c.json -- <server command>`, `mcpkit replay c.json`,
// `mcpkit verify c.json -- <server command>`, `mcpkit diff old.json new.json`.
// Run: pnpm --filter @mcpkit/docs example examples/testing-cassettes.ts
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import {
  findSecrets,
  parseCassette,
  recordTransport,
  replayServer,
  stringifyCassette,
  verifyCassette,
} from "@mcpkit/testing";
import { connect } from "mcpkit";
import { z } from "zod";

function createWeatherServer(sky = "sunny") {
  const server = createServer({ name: "weather", version: "1.0.0" });
  server.registerTool(
    "forecast",
    { inputSchema: z.object({ city: z.string() }) },
    ({ city }) => `${city}: ${sky}`,
  );
  return server;
}

const file = join(mkdtempSync(join(tmpdir(), "cassettes-")), "weather.json");

test("record a session", async () => {
  const [clientEnd, serverEnd] = createInMemoryPair();
  await createWeatherServer().connect(serverEnd);
  // recordTransport wraps any transport (spawnStdioTransport, the HTTP one…) and passes every message on.
  const recording = recordTransport(clientEnd);
  await using client = await connect(recording.transport);
  const result = await client.callTool(
    "forecast",
    { city: "Lisbon" },
    { meta: { apiKey: "sk-not-in-the-file" } },
  );
  assert.equal(result.content, "Lisbon: sunny");
  const text = stringifyCassette(recording.cassette());
  assert.deepEqual(findSecrets(JSON.parse(text)), []); // the apiKey was redacted
  writeFileSync(file, text);
});

test("replay it: the same answers, without the server", async () => {
  const cassette = parseCassette(readFileSync(file, "utf8"));
  await using client = await connect(replayServer(cassette));
  assert.equal((await client.callTool("forecast", { city: "Lisbon" })).content, "Lisbon: sunny");
  // A request the recording does not have is answered at once, naming the nearest recorded one.
  await assert.rejects(client.callTool("forecast", { city: "Paris" }), /expected "Lisbon", got "Paris"/);
});

test("verify: the live server still answers as recorded, a changed one is caught", async () => {
  const cassette = parseCassette(readFileSync(file, "utf8"));
  for (const [sky, ok] of [
    ["sunny", true],
    ["cloudy", false],
  ] as const) {
    const [clientEnd, serverEnd] = createInMemoryPair();
    await createWeatherServer(sky).connect(serverEnd);
    const report = await verifyCassette(cassette, clientEnd);
    assert.equal(report.ok, ok);
    if (!ok)
      assert.match(
        report.divergence!.message,
        /^tools\/call .* at \$\.result\.content\[0\]\.text: expected "Lisbon: sunny", got "Lisbon: cloudy"$/,
      );
  }
});
