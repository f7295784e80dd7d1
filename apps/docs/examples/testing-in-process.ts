// Testing a server in-process: `connectInProcess(server)` (`@mcpkit/testing`) joins a client to a server of
// the same process through an in-memory pair — the client API you ship, no child process, no port — in
// either era. Here with node:test and node:assert, as a test file of your own would be.
// Run: pnpm --filter @mcpkit/docs example examples/testing-in-process.ts
import assert from "node:assert/strict";
import { test } from "node:test";
import { createServer } from "@mcpkit/server";
import { connectInProcess } from "@mcpkit/testing";
import { z } from "zod";

function createWeatherServer() {
  const server = createServer({ name: "weather", version: "1.0.0" });
  server.registerTool("forecast", { inputSchema: z.object({ city: z.string() }) }, ({ city }) => {
    if (city === "Atlantis") throw new Error(`no forecast for ${city}`);
    return `${city}: sunny, 24 °C`;
  });
  return server;
}

for (const era of ["modern", "legacy"] as const) {
  test(`forecast (${era})`, async () => {
    await using client = await connectInProcess(createWeatherServer(), { versionNegotiation: era });
    assert.equal(client.era, era);
    assert.equal((await client.callTool("forecast", { city: "Lisbon" })).content, "Lisbon: sunny, 24 °C");
    const failed = await client.callTool("forecast", { city: "Atlantis" });
    assert.deepEqual([failed.isError, failed.content], [true, "no forecast for Atlantis"]);
  });
}
