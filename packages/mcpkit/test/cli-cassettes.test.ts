// mcpkit record / replay / verify / diff as a user runs them: the bundled CLI as a child process.
// The official SDK v1 client records a session of the reference server-everything (2025-11-25) through
// the recording proxy, then gets the same results from `mcpkit replay`; verify and diff run on a small
// server in two versions; the proxy is shown to pass bytes through unchanged both ways.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createJsonSchemaValidator } from "@mcpkit/json-schema";
import { serverEverythingEntry, startServerEverythingHttp } from "@mcpkit/peers";
import { bundleFixture } from "@mcpkit/test-kit";
import { findSecrets, parseCassette } from "@mcpkit/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "../src/index.js";
import { bundledCli, runCli } from "./cli-runner.js";
import { freePort } from "./free-port.js";

const dir = mkdtempSync(path.join(tmpdir(), "mcpkit-cassettes-"));
const fixture = (name: string) => path.join(import.meta.dirname, "fixtures", "cassettes", name);
let cli: string;
let weather: string;
beforeAll(async () => {
  cli = await bundledCli();
  weather = await bundleFixture(fixture("weather-server.ts"));
}, 60_000);
// Every cassette these tests wrote is scanned for secrets the redaction rules would catch, and checked
// against the JSON Schema @mcpkit/testing ships.
afterAll(async () => {
  const schemaFile = createRequire(import.meta.url).resolve("@mcpkit/testing/cassette.schema.json");
  const schema = createJsonSchemaValidator().compile(JSON.parse(readFileSync(schemaFile, "utf8")));
  const written = readdirSync(dir).filter((f) => f.endsWith(".json") && f !== "bad.json");
  expect(written.length).toBeGreaterThan(0);
  for (const file of written) {
    const cassette = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
    expect([file, findSecrets(cassette)]).toEqual([file, []]);
    expect([file, await schema.validate(cassette)]).toEqual([file, { ok: true }]);
  }
  // The schema can fail: a cassette of a newer version or with an unknown side is not one.
  expect(
    await schema.validate({ format: "mcpkit-cassette", version: 2, era: "legacy", redacted: [], events: [] }),
  ).toMatchObject({ ok: false });
  expect(
    await schema.validate({
      format: "mcpkit-cassette",
      version: 1,
      era: "legacy",
      redacted: [],
      events: [{ from: "host", message: { jsonrpc: "2.0", method: "x" } }],
    }),
  ).toMatchObject({ ok: false });
});

/** A session of the official SDK v1 client over a stdio command (or a URL); its results, for comparison. */
async function sdkSession(command: string[] | URL) {
  const client = new Client({ name: "sdk-v1", version: "1.0.0" });
  const transport = Array.isArray(command)
    ? new StdioClientTransport({ command: command[0]!, args: command.slice(1), stderr: "ignore" })
    : new StreamableHTTPClientTransport(command);
  await client.connect(transport);
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    const echo = await client.callTool({
      name: "echo",
      arguments: { message: "hi" },
      _meta: { apiToken: "sk-secret-1" },
    });
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name).sort();
    const resources = (await client.listResources()).resources.slice(0, 3).map((r) => r.uri);
    const read = await client.readResource({ uri: resources[0]! });
    return { version: client.getServerVersion()?.name, tools, echo, prompts, resources, read };
  } finally {
    await client.close();
  }
}

async function weatherSession(command: string[]) {
  const client = new Client({ name: "sdk-v1", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: command[0]!, args: command.slice(1), stderr: "ignore" }),
  );
  try {
    const tools = (await client.listTools()).tools;
    const prompts = (await client.listPrompts()).prompts;
    const call = await client.callTool({ name: "forecast", arguments: { city: "Oslo" } });
    return { tools, prompts, call };
  } finally {
    await client.close();
  }
}

/**
 * Runs `mcpkit replay FILE --http PORT` while `use(url)` runs, then stops it (SIGTERM) and waits for
 * its exit. Rejects when the replay exits before it says it is serving.
 */
async function withHttpReplay<T>(file: string, use: (url: string) => Promise<T>): Promise<T> {
  const port = await freePort();
  const replay = spawn(process.execPath, [cli, "replay", file, "--http", String(port)], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise((resolve) => replay.on("close", resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      let err = "";
      replay.stderr.on("data", (c: Buffer) => {
        err += c.toString();
        if (err.includes("replaying")) resolve();
      });
      replay.on("close", (code) => reject(new Error(`replay exited ${code}: ${err}`)));
    });
    return await use(`http://127.0.0.1:${port}/mcp`);
  } finally {
    replay.kill("SIGTERM");
    await exited;
  }
}

describe("mcpkit record and replay with the official SDK v1 client", () => {
  it("records server-everything through the proxy, and the replay gives the same results", async () => {
    const out = path.join(dir, "everything.json");
    const server = [process.execPath, serverEverythingEntry(), "stdio"];
    const live = await sdkSession([process.execPath, cli, "record", "--out", out, "--", ...server]);
    const text = readFileSync(out, "utf8");
    const cassette = parseCassette(text);
    expect(cassette).toMatchObject({ era: "legacy", protocolVersion: "2025-11-25" });
    expect(findSecrets(JSON.parse(text))).toEqual([]);
    expect(text).not.toContain("sk-secret-1");
    expect(live.echo.content).toEqual([{ type: "text", text: "Echo: hi" }]);

    const replayed = await sdkSession([process.execPath, cli, "replay", out]);
    expect(replayed).toEqual(live);

    const verified = await runCli(["verify", out, "--", ...server]);
    expect(verified.stdout).toMatch(/^ok: \d+ recorded answers match/);
    expect(verified.code).toBe(0);
  });
});

describe("mcpkit record of a URL, and replay --http", () => {
  it("records server-everything over HTTP behind the proxy (secrets redacted), and replays it on HTTP", async () => {
    const server = await startServerEverythingHttp({ mode: "streamableHttp" });
    const out = path.join(dir, "everything-http.json");
    let live: Awaited<ReturnType<typeof sdkSession>>;
    try {
      const url = `${server.url}?token=sk-url-secret`;
      live = await sdkSession([
        process.execPath,
        cli,
        "record",
        "--out",
        out,
        "-H",
        "Authorization: Bearer sk-header-secret",
        url,
      ]);
      const verified = await runCli(["verify", out, server.url]);
      expect([verified.code, verified.stdout]).toEqual([
        0,
        expect.stringMatching(/^ok: \d+ recorded answers match/),
      ]);
      const diffed = await runCli(["diff", out, server.url]);
      expect([diffed.code, diffed.stdout]).toEqual([0, "no changes\n"]);
    } finally {
      await server.close();
    }
    const text = readFileSync(out, "utf8");
    expect(text).not.toMatch(/sk-url-secret|sk-header-secret|sk-secret-1/);
    expect(findSecrets(JSON.parse(text))).toEqual([]);
    const cassette = parseCassette(text);
    expect(cassette.target).toContain("token=%5BREDACTED%5D");
    expect(cassette).toMatchObject({ era: "legacy", protocolVersion: "2025-11-25" });

    const replayed = await withHttpReplay(out, (url) => sdkSession(new URL(url)));
    expect(replayed).toEqual(live);
  });
});

describe("a 2026-07-28 session of our client, recorded on stdio and replayed on HTTP", () => {
  it("gives our client the same results from `mcpkit replay --http`", async () => {
    const out = path.join(dir, "weather-modern.json");
    const session = async (target: Parameters<typeof connect>[0]) => {
      await using client = await connect(target);
      const tools = (await client.listTools()).map((t) => t.name);
      const call = await client.callTool("forecast", { city: "Oslo" });
      return { era: client.era, tools, content: call.content };
    };
    const live = await session([
      process.execPath,
      cli,
      "record",
      "--out",
      out,
      "--",
      process.execPath,
      weather,
      "v1",
    ]);
    expect(live).toEqual({ era: "modern", tools: ["forecast"], content: "Sunny in Oslo" });
    expect(parseCassette(readFileSync(out, "utf8")).era).toBe("modern");
    expect(await withHttpReplay(out, session)).toEqual(live);
    // verify over modern HTTP (its requests carry the MCP-Protocol-Version/Mcp-Method/Mcp-Name headers).
    const verified = await withHttpReplay(out, (url) => runCli(["verify", out, url]));
    expect([verified.code, verified.stdout]).toEqual([
      0,
      expect.stringMatching(/^ok: \d+ recorded answers match/),
    ]);
  });
});

describe("mcpkit verify and diff", () => {
  it("verify passes against the live server and names the place a changed one diverges", async () => {
    const out = path.join(dir, "weather-v1.json");
    const live = await weatherSession([
      process.execPath,
      cli,
      "record",
      "--out",
      out,
      "--",
      process.execPath,
      weather,
      "v1",
    ]);
    expect(live.call.content).toEqual([{ type: "text", text: "Sunny in Oslo" }]);
    const ok = await runCli(["verify", out, "--", process.execPath, weather, "v1"]);
    expect([ok.code, ok.stdout]).toEqual([0, expect.stringMatching(/^ok: /)]);
    const changed = await runCli(["verify", out, "--", process.execPath, weather, "v2"]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(
      /^diverged: tools\/list \(events\[\d+\]\) at \$\.result\.tools\[0\]\.inputSchema\.properties\.city: expected \{"type":"string"\}, got \(missing\)/,
    );
  });

  it("diff marks a removed required property as breaking (text and --json), exit 1", async () => {
    const v1 = path.join(dir, "weather-v1.json");
    const v2 = path.join(dir, "weather-v2.json");
    await weatherSession([
      process.execPath,
      cli,
      "record",
      "--out",
      v1,
      "--",
      process.execPath,
      weather,
      "v1",
    ]);
    await weatherSession([
      process.execPath,
      cli,
      "record",
      "--out",
      v2,
      "--",
      process.execPath,
      weather,
      "v2",
    ]).catch(() => {});
    const text = await runCli(["diff", v1, v2]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("! ~ tool forecast (breaking)");
    expect(text.stdout).toContain("inputSchema.properties.city: required property removed (breaking)");
    const json = await runCli(["diff", v1, "--json", "--", process.execPath, weather, "v2"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      breaking: true,
      changes: [expect.objectContaining({ kind: "tool", name: "forecast", breaking: true })],
    });
    const same = await runCli(["diff", v1, "--", process.execPath, weather, "v1"]);
    expect([same.code, same.stdout]).toEqual([0, "no changes\n"]);
  });
});

describe("the recording proxy", () => {
  it("passes every byte through unchanged both ways", async () => {
    const received = path.join(dir, "received.bin");
    const reply = '{ "result" :{"z":1,"a":"\\u00e9\u00e9 ✓"},  "id":1,"jsonrpc":"2.0"}\n';
    const sent = Buffer.from(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{ "b":2, "a":"\\u0041 ✓"}}\nnot json at all\n',
      "utf8",
    );
    const out = path.join(dir, "raw.json");
    const child = spawn(
      process.execPath,
      [cli, "record", "--out", out, "--", process.execPath, fixture("raw-echo-server.mjs"), received],
      {
        env: { ...process.env, RAW_REPLY: reply },
      },
    );
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    child.stdin.end(sent);
    expect(await exited).toBe(0);
    expect(readFileSync(received)).toEqual(sent);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(reply + reply, "utf8"));
    const cassette = parseCassette(readFileSync(out, "utf8"));
    expect(cassette.events.map((e) => e.from)).toEqual(["client", "server", "server"]);
  });

  it("refuses a corrupt cassette naming the line, and a newer version", async () => {
    const bad = path.join(dir, "bad.json");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(bad, '{\n  "format": "mcpkit-cassette",\n  "version": 1,\n  "era": "legacy",,\n}');
    const run = await runCli(["replay", bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/bad\.json: cassette: line 4, column \d+: /);
    writeFileSync(
      bad,
      JSON.stringify({ format: "mcpkit-cassette", version: 9, era: "legacy", redacted: [], events: [] }),
    );
    const newer = await runCli(["verify", bad, "--", process.execPath, weather, "v1"]);
    expect(newer.stderr).toContain("cassette: version 9 is newer than this @mcpkit/testing reads (1)");
  });
});
