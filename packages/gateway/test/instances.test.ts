// Three gateway instances (one key ring) behind the test-kit round-robin proxy, each with its own copy of
// server-everything (2025-11-25 only), reached by a 2026-07-28 client: every request may land on another
// instance, and an elicitation round whose retry reaches an instance that does not hold the upstream call
// is replayed there from the answers sealed in requestState.
import { randomBytes } from "node:crypto";
import { createClient } from "@mcpkit/client";
import { serverEverythingEntry } from "@mcpkit/peers";
import { startRoundRobinProxy } from "@mcpkit/test-kit";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { expect, it } from "vitest";
import { createGateway, type Gateway, parseGatewayConfig } from "../src/index.js";

it("serves one client from three instances, an MRTR round crossing instances included", async () => {
  const requestStateKey = randomBytes(32);
  const config = parseGatewayConfig({
    mcpServers: { everything: { command: process.execPath, args: [serverEverythingEntry(), "stdio"] } },
    gateway: { audit: { target: "off" } },
  });
  const gateways: Gateway[] = [];
  const urls: string[] = [];
  let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>> | undefined;
  const client = createClient({
    name: "instances-test",
    version: "1.0.0",
    versionNegotiation: "modern",
    handlers: { elicitation: () => ({ action: "accept", content: { name: "Lin" } }) as never },
  });
  try {
    for (let i = 0; i < 3; i++) {
      const gateway = createGateway({ config, requestStateKey });
      gateways.push(gateway);
      await gateway.start();
      urls.push(new URL((await gateway.listen()).url).origin);
    }
    proxy = await startRoundRobinProxy({ upstreams: urls });
    await client.connect(() =>
      createStreamableHttpClientTransport({ url: new URL(`${proxy!.url}/mcp`), era: "modern" }),
    );
    expect((await client.callTool("echo", { message: "lb" })).content).toBe("Echo: lb");
    const before = proxy.log.length;
    const result = await client.callTool("trigger-elicitation-request", {});
    expect(result.content).toContain("Lin");
    const rounds = proxy.log.slice(before).filter((r) => r.method === "POST");
    expect(rounds.length).toBe(2);
    expect(rounds[0]?.instance).not.toBe(rounds[1]?.instance);
  } finally {
    await client.close();
    await proxy?.close();
    await Promise.all(gateways.map((g) => g.close()));
  }
});
