// Both eras over a real (spoiled) network: a network namespace made by the test, a veth pair on a private
// /30, a delaying relay inside the namespace (80 ± 20 ms each way), iptables there for loss. Client and
// server run here; every byte between them crosses the veth pair twice and waits in the relay. Traffic
// goes only to the two addresses of that /30; the namespace and the pair are removed at the end.
import { fileURLToPath } from "node:url";
import { listen } from "@mcpkit/transport-http/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createServer, TimeoutError } from "../src/index.js";
import { createNetnsLink, type NetnsLink, netnsMissing, ready } from "./netns/netns.js";

const missing = netnsMissing();
if (missing !== undefined && process.env.CI === "true")
  throw new Error(`CI needs network namespaces: ${missing}`);
if (missing !== undefined) console.warn(`Skipping the real-network tests: ${missing}`);

const relayScript = fileURLToPath(new URL("./netns/relay.mjs", import.meta.url));
const ERAS = ["modern", "legacy"] as const;

describe.skipIf(missing !== undefined)("a real network: latency and loss between client and server", () => {
  let link: NetnsLink;
  let close: () => Promise<void>;
  let url: string;
  const runs = new Map<string, number>();

  beforeAll(async () => {
    link = createNetnsLink();
    const server = createServer({ name: "far", version: "1" });
    server.registerTool(
      "count",
      { inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
      ({ id }: { id: string }) => {
        runs.set(id, (runs.get(id) ?? 0) + 1);
        return `ran ${id}`;
      },
    );
    server.registerTool("slow", {}, async (_args, ctx) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        ctx.signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return "late";
    });
    const relayPort = 20_000 + (process.pid % 20_000);
    const handle = await listen({
      server,
      host: link.outside,
      port: 0,
      allowedHosts: [`${link.inside}:${relayPort}`, link.inside],
    });
    close = () => handle.close();
    const relay = link.spawn([
      process.execPath,
      relayScript,
      link.inside,
      String(relayPort),
      link.outside,
      String(handle.port),
      "80",
      "20",
    ]);
    await ready(relay);
    url = `http://${link.inside}:${relayPort}/mcp`;
  }, 30_000);

  afterAll(async () => {
    await close?.();
    link?.remove();
  });

  it("80 ± 20 ms each way: both eras' calls work, and a per-call timeout fires at its bound", async () => {
    for (const versionNegotiation of ERAS) {
      await using client = await connect(url, { versionNegotiation, connectTimeout: 20_000 });
      const started = Date.now();
      expect((await client.callTool("count", { id: `latency-${versionNegotiation}-0` })).content).toBe(
        `ran latency-${versionNegotiation}-0`,
      );
      // The relay holds each way at least 60 ms: a round trip under 120 ms would mean it was bypassed.
      expect(Date.now() - started).toBeGreaterThanOrEqual(120);
      for (let i = 1; i < 3; i++)
        await client.callTool("count", { id: `latency-${versionNegotiation}-${i}` });
      const before = Date.now();
      const late = await client.callTool("slow", {}, { timeout: 600 }).catch((e: unknown) => e);
      const waited = Date.now() - before;
      expect(late).toBeInstanceOf(TimeoutError);
      // At its bound, not a round trip (or a retry) later: the timeout is the client's own clock.
      expect(waited).toBeGreaterThanOrEqual(600);
      expect(waited).toBeLessThan(600 + 1_000);
    }
  }, 60_000);

  it("2% loss each way: every call completes or fails with a named error, none runs twice", async () => {
    for (const chain of ["INPUT", "OUTPUT"]) {
      link.iptables([
        "-A",
        chain,
        "-m",
        "statistic",
        "--mode",
        "random",
        "--probability",
        "0.02",
        "-j",
        "DROP",
      ]);
    }
    const tally = { completed: 0, failed: 0, duplicated: 0, dropped: 0, errors: [] as string[] };
    try {
      for (const versionNegotiation of ERAS) {
        await using client = await connect(url, { versionNegotiation, connectTimeout: 30_000 });
        for (let i = 0; i < 12; i++) {
          const id = `loss-${versionNegotiation}-${i}`;
          try {
            const result = await client.callTool("count", { id }, { timeout: 20_000 });
            expect(result.content).toBe(`ran ${id}`);
            tally.completed++;
          } catch (error) {
            tally.failed++;
            expect(error).toBeInstanceOf(Error);
            expect((error as Error).name).not.toBe("Error");
            tally.errors.push(`${(error as Error).name}: ${(error as Error).message}`);
          }
        }
      }
    } finally {
      // Packets the rules dropped (the first column of `iptables -L -v -x`), then the rules go.
      for (const chain of ["INPUT", "OUTPUT"]) {
        const listed = link.iptables(["-L", chain, "-v", "-x", "-n"]).split("\n")[2] ?? "";
        tally.dropped += Number(listed.trim().split(/\s+/)[0] ?? 0);
        link.iptables(["-F", chain]);
      }
    }
    for (const [id, count] of runs) if (id.startsWith("loss-") && count > 1) tally.duplicated++;
    console.log(`real network, 2% loss: ${JSON.stringify(tally)}`);
    expect(tally.duplicated).toBe(0);
    expect(tally.completed + tally.failed).toBe(24);
    // The loss was real: the rules dropped packets.
    expect(tally.dropped).toBeGreaterThan(0);
  }, 300_000);
});
