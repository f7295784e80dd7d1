// Faults behind the gateway, with real child processes: an upstream that crashes mid-call, one that
// writes junk on stdout, one slower than its timeout, and a tool named to collide with another's.
import type { Client } from "@mcpkit/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NameCollisionError } from "../src/index.js";
import { connectClient, fixtureEntry, type RunningGateway, startGateway } from "./support/harness.js";

describe("faults", () => {
  let running: RunningGateway;
  let client: Client;

  beforeAll(async () => {
    running = await startGateway({
      mcpServers: { a: fixtureEntry({ JUNK: "1" }), b: fixtureEntry() },
      // Two copies of one server: b's resource would collide with a's (URIs are never prefixed).
      gateway: { upstreams: { a: { timeoutMs: 1500 }, b: { exclude: ["fixture://*"] } } },
    });
    client = await connectClient(running.endpoint.url, "modern");
  });
  afterAll(async () => {
    await client?.close();
    await running?.close();
  });

  it("prefixes every upstream's names when there are several", async () => {
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toContain("a__greet");
    expect(names).toContain("b__greet");
    expect(names).not.toContain("greet");
  });

  it("a crash fails that call naming the upstream and its stderr; it is respawned and others are unaffected", async () => {
    const before = (await client.callTool("a__pid", {})).content;
    const crashed = await client.callTool("a__crash", {});
    expect(crashed.isError).toBe(true);
    expect(crashed.content).toMatch(/^upstream "a" crashed during crash/);
    expect(crashed.content).toContain("fixture: about to crash");
    expect((await client.callTool("b__greet", { name: "b" })).content).toBe("hello b");
    const after = await client.callTool("a__pid", {});
    expect(after.isError).toBe(false);
    expect(after.content).not.toBe(before);
    expect((await client.callTool("a__greet", { name: "again" })).content).toBe("hello again");
  });

  it("junk on an upstream's stdout does not break it or the gateway", async () => {
    expect((await client.callTool("a__junk", {})).content).toBe("junk written");
    expect((await client.callTool("a__greet", { name: "after junk" })).content).toBe("hello after junk");
  });

  it("a 20 MiB frame and a flood of notifications do not take the gateway down", async () => {
    // The over-cap line is dropped by the framer; the answer after it still arrives.
    expect((await client.callTool("b__huge", {})).content).toBe("after the huge line");
    expect((await client.callTool("a__flood", {})).content).toBe("flooded");
    expect((await client.callTool("a__greet", { name: "after the flood" })).content).toBe(
      "hello after the flood",
    );
    expect((await client.callTool("b__greet", { name: "b" })).content).toBe("hello b");
  });

  it("a slow upstream is bounded by its timeout, with an error naming it", async () => {
    const result = await client.callTool("a__slow", { ms: 20_000 });
    expect(result.isError).toBe(true);
    expect(result.content).toBe('upstream "a" did not answer slow within 1500 ms');
    expect(running.audit.at(-1)).toMatchObject({ name: "a__slow", outcome: "tool-error" });
    expect((await client.callTool("b__slow", { ms: 1 })).content).toBe("slept 1");
  });
});

describe("collisions are refused at start", () => {
  it("names both upstreams when two tools would have one name", async () => {
    const start = startGateway({
      mcpServers: { a: fixtureEntry(), b: fixtureEntry({ EXTRA_TOOL: "a__greet" }) },
      gateway: { upstreams: { b: { prefix: false, exclude: ["fixture://*"] } } },
    });
    const error = await start.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameCollisionError);
    expect((error as Error).message).toBe(
      'tool name "a__greet" is offered by both a:greet and b:a__greet: give one of the upstreams a prefix (gateway.upstreams.<name>.prefix) or filter one out',
    );
  });
});
