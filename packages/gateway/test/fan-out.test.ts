// list_changed fan-out, cancellation passing through, and the search_tools meta-tool.
import type { Client } from "@mcpkit/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALL_TOOL, SEARCH_TOOLS } from "../src/index.js";
import { connectClient, fixtureEntry, type RunningGateway, startGateway, within } from "./support/harness.js";

describe("one gateway over the fixture", () => {
  let running: RunningGateway;
  let modern: Client;
  let legacy: Client;

  beforeAll(async () => {
    running = await startGateway({ mcpServers: { fx: fixtureEntry() } });
    modern = await connectClient(running.endpoint.url, "modern");
    legacy = await connectClient(running.endpoint.url, "legacy");
  });
  afterAll(async () => {
    await modern?.close();
    await legacy?.close();
    await running?.close();
  });

  it("fans an upstream's tools/list_changed out to both eras, with the new tool callable", async () => {
    const listen = modern.subscribe({ toolsListChanged: true });
    const session = legacy.subscribe({ toolsListChanged: true });
    try {
      await within(listen.acknowledged, 10_000, "the listen acknowledgement");
      await within(session.acknowledged, 10_000, "the legacy subscription");
      expect((await modern.callTool("add-tool", {})).content).toBe("registered");
      const seen = await within(listen.next(), 15_000, "list_changed on the listen stream");
      expect(seen.value).toMatchObject({ method: "notifications/tools/list_changed" });
      const heard = await within(session.next(), 15_000, "list_changed in the legacy session");
      expect(heard.value).toMatchObject({ method: "notifications/tools/list_changed" });
      expect((await modern.listTools({ refresh: true })).map((t) => t.name)).toContain("added");
      expect((await legacy.callTool("added", {})).content).toBe("added works");
    } finally {
      await listen.close();
      await session.close();
    }
  });

  it("passes a cancellation through to the upstream, in both eras", async () => {
    for (const client of [modern, legacy]) {
      const before = Number((await client.callTool("aborts", {})).content);
      const controller = new AbortController();
      const call = client.callTool(
        "slow",
        { ms: 60_000 },
        { signal: controller.signal, onProgress: () => controller.abort(new Error("user cancelled")) },
      );
      await expect(within(call, 15_000, "the cancelled call")).rejects.toThrow("user cancelled");
      // The upstream hears of it: its aborted count goes up (polled, each poll bounded).
      let after = before;
      for (let i = 0; i < 50 && after === before; i++) {
        after = Number((await client.callTool("aborts", {})).content);
        if (after === before) await new Promise((r) => setTimeout(r, 100));
      }
      expect(after).toBe(before + 1);
    }
  });
});

describe("search_tools", () => {
  it("offers two meta-tools (plus alwaysOffer) that find and call the rest", async () => {
    const running = await startGateway({
      mcpServers: { fx: fixtureEntry() },
      gateway: { searchTools: { alwaysOffer: ["pid"] }, audit: { target: "off" } },
    });
    const client = await connectClient(running.endpoint.url, "modern");
    try {
      expect((await client.listTools()).map((t) => t.name).sort()).toEqual(
        [CALL_TOOL, "pid", SEARCH_TOOLS].sort(),
      );
      const found = await client.callTool(SEARCH_TOOLS, { query: "hello greeting", limit: 3 });
      const names = (found.structured as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      expect(names[0]).toBe("greet");
      const called = await client.callTool(CALL_TOOL, { name: "greet", arguments: { name: "search" } });
      expect(called.content).toBe("hello search");
      const unknown = await client.callTool(CALL_TOOL, { name: "nope" });
      expect(unknown).toMatchObject({
        isError: true,
        content: 'no tool named "nope": use search_tools to find one',
      });
    } finally {
      await client.close();
      await running.close();
    }
  });
});
