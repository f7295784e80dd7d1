// Two identities with different rules (API keys; and a verified token's scopes and claims through a
// token verifier shaped as @mcpkit/auth's createProtectedResource), per-identity limits, the audit line.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TokenVerifier } from "../src/index.js";
import { createGateway, parseGatewayConfig } from "../src/index.js";
import { connectClient, fixtureEntry, type RunningGateway, startGateway } from "./support/harness.js";

const env = { ALICE_KEY: "alice-secret-key", BOB_KEY: "bob-secret-key" };

describe("per-identity filtering with API keys", () => {
  let running: RunningGateway;

  beforeAll(async () => {
    running = await startGateway(
      {
        mcpServers: { fx: fixtureEntry() },
        gateway: {
          apiKeys: { alice: { env: "ALICE_KEY" }, bob: { env: "BOB_KEY" } },
          profiles: [
            { name: "admin", match: { identities: ["alice"] } },
            {
              name: "reader",
              match: { identities: ["bob"] },
              tools: { allow: ["greet", "slow", "pid"], deny: ["pid"] },
              prompts: { allow: [] },
              resources: { deny: ["fixture://*"] },
              concurrency: 1,
              callsPerMinute: 3,
            },
          ],
          audit: { arguments: true },
        },
      },
      env,
    );
  });
  afterAll(async () => {
    await running?.close();
  });

  it("each identity sees only what its profile allows, in both eras", async () => {
    for (const era of ["modern", "legacy"] as const) {
      const alice = await connectClient(running.endpoint.url, era, { apiKey: env.ALICE_KEY });
      const bob = await connectClient(running.endpoint.url, era, { apiKey: env.BOB_KEY });
      try {
        expect((await alice.listTools()).map((t) => t.name)).toContain("crash");
        expect((await bob.listTools()).map((t) => t.name).sort()).toEqual(["greet", "slow"]);
        // Nothing allowed of a kind: the kind is not even declared.
        expect(bob.capabilities?.prompts).toBeUndefined();
        expect(bob.capabilities?.resources).toBeUndefined();
        expect((await alice.listResources()).map((r) => r.uri)).toEqual(["fixture://note"]);
        const refused = await bob.callTool("pid", {}).then(
          (r) => r.content,
          (e: Error) => e.message,
        );
        expect(refused).toMatch(/pid/);
        expect(refused).not.toMatch(/^\d+$/);
      } finally {
        await alice.close();
        await bob.close();
      }
    }
  });

  it("writes one audit line per call: who, which upstream tool, outcome, duration, arguments when enabled", async () => {
    const alice = await connectClient(running.endpoint.url, "modern", { apiKey: env.ALICE_KEY });
    try {
      await alice.callTool("greet", { name: "audit" });
    } finally {
      await alice.close();
    }
    const line = running.audit.at(-1);
    expect(line).toMatchObject({
      identity: "alice",
      profile: "admin",
      method: "tools/call",
      name: "greet",
      upstream: "fx",
      upstreamName: "greet",
      outcome: "ok",
      arguments: { name: "audit" },
    });
    expect(typeof line?.durationMs).toBe("number");
  });

  it("refuses a wrong key and no key with 401", async () => {
    const status = async (headers: Record<string, string>) => {
      const response = await fetch(running.endpoint.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
      return `${response.status} ${(await response.json()).error.message}`;
    };
    expect(await status({ "x-api-key": "wrong" })).toBe("401 the API key is not valid");
    expect(await status({})).toBe("401 credentials are required (X-Api-Key or Authorization: Bearer)");
    await expect(connectClient(running.endpoint.url, "modern", { apiKey: "wrong" })).rejects.toThrow(
      /not valid/,
    );
  });

  it("caps an identity's calls per minute", async () => {
    const bob = await connectClient(running.endpoint.url, "modern", { apiKey: env.BOB_KEY });
    try {
      const texts: string[] = [];
      for (let i = 0; i < 4; i++) texts.push((await bob.callTool("greet", { name: String(i) })).content);
      expect(texts.filter((t) => t.startsWith("hello")).length).toBeLessThanOrEqual(3);
      expect(texts.at(-1)).toBe("rate limit: bob is over callsPerMinute (3)");
      expect(running.audit.at(-1)).toMatchObject({ identity: "bob", outcome: "limited" });
    } finally {
      await bob.close();
    }
  });
});

describe("identities from a token verifier (scopes and claims)", () => {
  it("picks the profile by scope and by claim", async () => {
    const tokens: Record<string, unknown> = {
      "token-ops": { subject: "ops-user", scopes: ["mcp:ops"], claims: { org: "acme" }, audience: [] },
      "token-guest": { subject: "guest", scopes: [], claims: { org: "acme" }, audience: [] },
    };
    const verifier: TokenVerifier = {
      authenticate: async (request) => {
        const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
        return tokens[token] ?? new Response("", { status: 401, headers: { "www-authenticate": "Bearer" } });
      },
    };
    const gateway = createGateway({
      config: parseGatewayConfig({
        mcpServers: { fx: fixtureEntry() },
        gateway: {
          profiles: [
            { name: "ops", match: { scopes: ["mcp:ops"] } },
            { name: "acme", match: { claims: { org: "acme" } }, tools: { allow: ["greet"] } },
          ],
          audit: { target: "off" },
        },
      }),
      tokenVerifier: verifier,
    });
    await gateway.start();
    const endpoint = await gateway.listen();
    try {
      const { createClient } = await import("@mcpkit/client");
      const { createStreamableHttpClientTransport } = await import("@mcpkit/transport-http");
      const names = async (token: string) => {
        const client = createClient({ name: "t", version: "1", versionNegotiation: "modern" });
        await client.connect(() =>
          createStreamableHttpClientTransport({
            url: new URL(endpoint.url),
            era: "modern",
            headers: { authorization: `Bearer ${token}` },
          }),
        );
        try {
          return (await client.listTools()).map((t) => t.name);
        } finally {
          await client.close();
        }
      };
      expect(await names("token-ops")).toContain("crash");
      expect(await names("token-guest")).toEqual(["greet"]);
      await expect(names("token-forged")).rejects.toThrow();
    } finally {
      await gateway.close();
    }
  });
});
