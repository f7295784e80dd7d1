// Cassettes end to end in one process: a session of each era recorded through recordTransport, replayed
// by replayServer to a new client, verified against the live server and a changed one, and diffed.
import { type ClientOptions, createClient } from "@mcpkit/client";
import { createInMemoryPair, type JsonRpcMessage } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { describe, expect, it } from "vitest";
import {
  type Cassette,
  CassetteError,
  diffSurfaces,
  findSecrets,
  formatSurfaceDiff,
  parseCassette,
  recordTransport,
  replayServer,
  stringifyCassette,
  surfaceFromCassette,
  verifyCassette,
} from "../src/index.js";

type ServerVersion = "v1" | "v2";

function weatherServer(version: ServerVersion = "v1") {
  const server = createServer({ name: "weather", version: "1.0.0" });
  server.registerTool(
    "forecast",
    {
      inputSchema:
        version === "v1"
          ? {
              type: "object",
              properties: { city: { type: "string" }, days: { type: "integer" } },
              required: ["city"],
            }
          : { type: "object", properties: { days: { type: "integer" } } },
    },
    ({ city }: { city?: string }) => (version === "v1" ? `Sunny in ${city}` : `Rain in ${city}`),
  );
  server.registerTool("whoami", {}, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    return `Hello ${String(answer.content?.name)}`;
  });
  return server;
}

const clientOptions = (era: "modern" | "legacy"): ClientOptions => ({
  name: "cassette-test",
  version: "1.0.0",
  versionNegotiation: era,
  handlers: { elicitation: async () => ({ action: "accept", content: { name: "Ada" } }) },
});

async function session(client: ReturnType<typeof createClient>) {
  const tools = (await client.listTools()).map((t) => t.name);
  const forecast = (
    await client.callTool("forecast", { city: "Oslo" }, { meta: { apiToken: "sk-live-123" } })
  ).content;
  const whoami = (await client.callTool("whoami")).content;
  return { tools, forecast, whoami };
}

async function record(era: "modern" | "legacy"): Promise<{ cassette: Cassette; live: unknown }> {
  const [clientEnd, serverEnd] = createInMemoryPair();
  await weatherServer().connect(serverEnd);
  const recording = recordTransport(clientEnd);
  const client = createClient(clientOptions(era));
  await client.connect(recording.transport);
  const live = await session(client);
  await client.close();
  return { cassette: recording.cassette(), live };
}

async function replay(cassette: Cassette, era: "modern" | "legacy") {
  const [clientEnd, serverEnd] = createInMemoryPair();
  await replayServer(cassette).connect(serverEnd);
  const client = createClient(clientOptions(era));
  await client.connect(clientEnd);
  try {
    return await session(client);
  } finally {
    await client.close();
  }
}

async function verifyAgainst(cassette: Cassette, version: ServerVersion) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  await weatherServer(version).connect(serverEnd);
  return verifyCassette(cassette, clientEnd, { timeoutMs: 2000 });
}

for (const era of ["modern", "legacy"] as const) {
  describe(`a ${era} session`, () => {
    it("records, replays with the same results, verifies, and names the divergence of a changed server", async () => {
      const { cassette, live } = await record(era);
      expect(cassette.era).toBe(era);
      const text = stringifyCassette(cassette);
      expect(findSecrets(JSON.parse(text))).toEqual([]);
      expect(text).not.toContain("sk-live-123");
      expect(text).toContain('"apiToken": "[REDACTED]"');
      const methods = cassette.events.map((e) => (e.message as { method?: string }).method).filter(Boolean);
      expect(methods).toContain(era === "modern" ? "server/discover" : "initialize");
      if (era === "modern") {
        // The MRTR round: an input_required result with its requestState, then the retry echoing it.
        const round = cassette.events.find((e) => JSON.stringify(e.message).includes('"input_required"'));
        expect(round).toBeDefined();
      } else expect(methods).toContain("elicitation/create");

      expect(await replay(parseCassette(text), era)).toEqual(live);
      expect(await verifyAgainst(cassette, "v1")).toMatchObject({ ok: true });
      const changed = await verifyAgainst(cassette, "v2");
      expect(changed.ok).toBe(false);
      expect(changed.divergence).toMatchObject({ method: "tools/list" });
      expect(changed.divergence?.path).toMatch(/^\$\.result\.tools\[0\]\.inputSchema/);
    });
  });
}

describe("verifyCassette", () => {
  it("stops when its signal is aborted, rejecting with the reason, and closes the transport", async () => {
    const { cassette } = await record("modern");
    const [clientEnd, serverEnd] = createInMemoryPair();
    await weatherServer().connect(serverEnd);
    const controller = new AbortController();
    controller.abort(new Error("stop verifying"));
    await expect(verifyCassette(cassette, clientEnd, { signal: controller.signal })).rejects.toThrow(
      "stop verifying",
    );
    await expect(clientEnd.send({ jsonrpc: "2.0", method: "x" })).rejects.toThrow();
  });
});

describe("replayServer", () => {
  it("answers an unmatched request at once, naming the nearest recorded request and the difference", async () => {
    const { cassette } = await record("modern");
    const [clientEnd, serverEnd] = createInMemoryPair();
    await replayServer(cassette).connect(serverEnd);
    const client = createClient(clientOptions("modern"));
    await client.connect(clientEnd);
    await client.listTools();
    const result = client.callTool("forecast", { city: "Paris" }, { timeout: 5000 });
    await expect(result).rejects.toThrow(
      /nearest is events\[\d+\] tools\/call, first difference at \$\.params\.arguments\.city: expected "Oslo", got "Paris"/,
    );
    await client.close();
  });

  it("answers at once a request whose answer the recording does not have (it ended first)", async () => {
    const { cassette } = await record("modern");
    const last = cassette.events.findLastIndex((e) => e.from === "server");
    const cut = { ...cassette, events: cassette.events.slice(0, last) };
    const [clientEnd, serverEnd] = createInMemoryPair();
    await replayServer(cut).connect(serverEnd);
    const client = createClient(clientOptions("modern"));
    await client.connect(clientEnd);
    await client.listTools();
    await client.callTool("forecast", { city: "Oslo" }, { meta: { apiToken: "sk-live-123" } });
    await expect(client.callTool("whoami", undefined, { timeout: 5000 })).rejects.toThrow(
      /^replay: the recording ends before the answer to events\[\d+\] tools\/call$/,
    );
    await client.close();
  });

  it("matches exactly when asked: another id is refused", async () => {
    const { cassette } = await record("legacy");
    const [clientEnd, serverEnd] = createInMemoryPair();
    await replayServer(cassette, { match: "exact" }).connect(serverEnd);
    const answers: unknown[] = [];
    await clientEnd.start({ onMessage: (m) => answers.push(m), onInvalid: () => {}, onClose: () => {} });
    const first = structuredClone(cassette.events[0]!.message) as JsonRpcMessage & { id: unknown };
    first.id = 999;
    await clientEnd.send(first);
    await expect.poll(() => answers.length).toBe(1);
    expect(JSON.stringify(answers[0])).toContain("first difference at $.id");
    await clientEnd.close();
  });
});

describe("parseCassette", () => {
  it("refuses corrupt text with its line and column, a bad field by name, and a newer version", () => {
    expect(() => parseCassette('{\n  "format": "mcpkit-cassette",\n  oops\n}')).toThrow(
      /^cassette: line 3, column 3: /,
    );
    const base = { format: "mcpkit-cassette", version: 1, era: "modern", redacted: [], events: [] };
    expect(() => parseCassette(JSON.stringify({ ...base, version: 2 }))).toThrow(
      "cassette: version 2 is newer than this @mcpkit/testing reads (1); upgrade it",
    );
    const bad = {
      ...base,
      events: [{ from: "client", message: { jsonrpc: "2.0", id: 1, method: "x" } }, { from: "host" }],
    };
    expect(() => parseCassette(JSON.stringify(bad))).toThrow(CassetteError);
    expect(() => parseCassette(JSON.stringify(bad))).toThrow(
      'cassette: events[1].from must be "client" or "server"',
    );
  });
});

describe("diffSurfaces", () => {
  it("marks a removed required property as breaking", async () => {
    const before = (await record("modern")).cassette;
    const [clientEnd, serverEnd] = createInMemoryPair();
    await weatherServer("v2").connect(serverEnd);
    const recording = recordTransport(clientEnd);
    const client = createClient(clientOptions("modern"));
    await client.connect(recording.transport);
    await client.listTools();
    await client.close();
    const diff = diffSurfaces(surfaceFromCassette(before), surfaceFromCassette(recording.cassette()));
    expect(diff.breaking).toBe(true);
    expect(diff.changes).toEqual([
      expect.objectContaining({
        kind: "tool",
        name: "forecast",
        change: "changed",
        breaking: true,
        details: ["inputSchema.properties.city: required property removed (breaking)"],
      }),
    ]);
    expect(formatSurfaceDiff(diff)).toContain("! ~ tool forecast (breaking)");
  });
});
