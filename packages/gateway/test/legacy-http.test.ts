// A 2025-11-25-only HTTP upstream (the fixture, a real child process) behind the gateway, with
// concurrent calls that each ask the client: a legacy server's requests name no call, so each call in
// flight gets an upstream session of its own and every request reaches the right caller.
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectClient, type RunningGateway, startGateway, startHttpFixture } from "./support/harness.js";

let upstream: { url: string; close(): Promise<void> };
let running: RunningGateway;

beforeAll(async () => {
  upstream = await startHttpFixture("legacy");
  running = await startGateway({
    mcpServers: { old: { url: upstream.url } },
    gateway: { upstreams: { old: { era: "legacy" } }, audit: { target: "off" } },
  });
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

it("answers the input requests of concurrent calls each from its own caller, in both eras", async () => {
  const clients = await Promise.all(
    ["Ada", "Bo", "Cy"].map((name, i) =>
      connectClient(running.endpoint.url, i % 2 === 0 ? "modern" : "legacy", {
        handlers: {
          elicitation: () => ({ action: "accept", content: { name } }) as never,
          sampling: () => ({ role: "assistant", content: { type: "text", text: `${name}!` }, model: "m" }),
          roots: () => [{ uri: `file:///${name}`, name }],
        },
      }),
    ),
  );
  try {
    const results = await Promise.all(clients.map((c) => c.callTool("ask", {})));
    expect(results.map((r) => r.content)).toEqual([
      "era=legacy name=Ada sampled=Ada! roots=file:///Ada",
      "era=legacy name=Bo sampled=Bo! roots=file:///Bo",
      "era=legacy name=Cy sampled=Cy! roots=file:///Cy",
    ]);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
});
