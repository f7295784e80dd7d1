// A 2026-07-28 session of the everything server recorded with @mcpkit/testing's recordTransport, driven
// by our client: a subscription (subscriptions/listen with a resource update), an MRTR form of two
// input_required rounds, and a task with its polls. Replayed by replayServer, the client gets the same
// results as live; verifyCassette passes against a new live server.
import { type Client, createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import {
  findSecrets,
  parseCassette,
  recordTransport,
  replayServer,
  stringifyCassette,
  verifyCassette,
} from "@mcpkit/testing";
import { describe, expect, it } from "vitest";
import { createEverythingServer, Uri } from "../src/server.js";
import { firstMatching } from "./harness.js";

function newClient(): Client {
  return createClient({
    name: "cassette-test",
    version: "1.0.0",
    versionNegotiation: "modern",
    tasks: true,
    handlers: {
      elicitation: async (params) =>
        params.message.includes("step 1")
          ? { action: "accept", content: { name: "Bo" } }
          : { action: "accept", content: { confirm: true } },
    },
  });
}

async function session(client: Client) {
  await using sub = client.subscribe({ resourceSubscriptions: [Uri.counter] });
  await sub.acknowledged;
  const form = await client.callTool("multi_step_form");
  const task = await client.callTool("slow_task", { steps: 2, stepMs: 5 });
  const bumped = await client.callTool("bump_counter");
  const update = await firstMatching(sub, (n) => n.method === "notifications/resources/updated", 5000);
  return {
    era: client.era,
    form: form.structured,
    task: task.structured,
    bumped: bumped.structured,
    update: update.params,
  };
}

describe("a 2026-07-28 cassette of the everything server", () => {
  it("records MRTR rounds, a task and a subscription; the replay gives our client the same results; verify passes live", async () => {
    const server = createEverythingServer({ tickMs: 0, taskPollIntervalMs: 10 });
    const [clientEnd, serverEnd] = createInMemoryPair();
    await server.connect(serverEnd);
    const recording = recordTransport(clientEnd);
    const live = newClient();
    await live.connect(recording.transport);
    const liveResults = await session(live);
    await live.close();
    await server.close();
    expect(liveResults).toMatchObject({
      era: "modern",
      form: { name: "Bo", confirmed: true },
      task: { ranAsTask: true },
    });

    const text = stringifyCassette(recording.cassette());
    expect(findSecrets(JSON.parse(text))).toEqual([]);
    const cassette = parseCassette(text);
    expect(cassette).toMatchObject({ era: "modern", protocolVersion: "2026-07-28" });
    const results = cassette.events.map(
      (e) => (e.message as { result?: { resultType?: string } }).result?.resultType,
    );
    expect(results.filter((t) => t === "input_required")).toHaveLength(2);
    expect(results).toContain("task");
    const methods = cassette.events.map((e) => (e.message as { method?: string }).method);
    expect(methods).toEqual(expect.arrayContaining(["server/discover", "subscriptions/listen", "tasks/get"]));
    expect(methods).toContain("notifications/subscriptions/acknowledged");

    const [replayClientEnd, replayServerEnd] = createInMemoryPair();
    await replayServer(cassette).connect(replayServerEnd);
    const replayed = newClient();
    await replayed.connect(replayClientEnd);
    expect(await session(replayed)).toEqual(liveResults);
    await replayed.close();

    const fresh = createEverythingServer({ tickMs: 0, taskPollIntervalMs: 10 });
    const [verifyEnd, freshEnd] = createInMemoryPair();
    await fresh.connect(freshEnd);
    const report = await verifyCassette(cassette, verifyEnd, { timeoutMs: 5000 });
    await fresh.close();
    expect(report).toMatchObject({ ok: true });
    expect(report.checked).toBeGreaterThan(8);
  });
});
