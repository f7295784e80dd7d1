// Every example in ../examples runs here, as a user would run it (bundled, then `node file.mjs`), and its
// output is checked — so the documentation cannot rot. The bridge examples run with the real provider
// SDKs against a loopback scripted provider (no keys, no network). The typecheck compiles them all.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleFixture } from "@mcpkit/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScriptedProvider, startScriptedProvider } from "./scripted-provider.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const examplesDir = join(root, "examples");
const exampleFiles = readdirSync(examplesDir).filter((f) => f.endsWith(".ts"));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a bundled script with node (bounded: killed after 20 s). */
function runNode(script: string, args: string[] = [], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { env: { ...process.env, ...env }, timeout: 20_000, cwd: root },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function runExample(name: string, env: Record<string, string> = {}): Promise<string[]> {
  const run = await runNode(await bundleFixture(join(examplesDir, name)), [], env);
  if (run.code !== 0) throw new Error(`${name} exited ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run.stdout.trimEnd().split("\n");
}

// Examples whose whole output is deterministic: compared line by line.
const exact: Record<string, string[]> = {
  "server-tools.ts": [
    'tool add: {"a":{"type":"number"},"b":{"type":"number"}}',
    'tool repeat: {"text":{"type":"string","minLength":1},"times":{"default":2,"type":"integer","minimum":1,"maximum":5}}',
    'tool shout: {"text":{"type":"string"}}',
    'tool divide: {"a":{"type":"number"},"b":{"type":"number"}}',
    "add → 5",
    "repeat → hi hi",
    "shout → HELLO",
    "add (invalid) → isError: true",
    "divide by zero → isError: true | cannot divide by zero",
  ],
  "server-structured-output.ts": [
    'outputSchema: {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"city":{"type":"string"},"high":{"type":"number"},"low":{"type":"number"},"sky":{"type":"string","enum":["sun","rain"]}},"required":["city","high","low","sky"],"additionalProperties":false}',
    'structured: {"city":"Lisbon","high":24,"low":15,"sky":"sun"}',
    'content: {"city":"Lisbon","high":24,"low":15,"sky":"sun"}',
    'report: All systems go. {"ok":true}',
  ],
  "server-content-types.ts": [
    "text: Here is everything:",
    "image: image/png 8 bytes",
    "audio: audio/wav 12 bytes",
    "resource_link: file:///docs/readme.md",
    "resource: file:///docs/note.txt an embedded note",
    "just_text: plain text",
  ],
  "server-resources.ts": [
    "resources: notes://index, notes://logo.png, notes://note/groceries, notes://note/todo",
    "templates: notes://note/{name}",
    'index: ["groceries","todo"] application/json',
    "logo: blob iVBORw==",
    "note/todo: write docs",
    "note/missing: McpError -32602",
  ],
  "server-prompts.ts": [
    "prompt greet(name*, style)",
    "prompt review(code*, language)",
    "greet: user Write a warm greeting for Ada.",
    "review: text + resource",
  ],
  "server-completions.ts": [
    "from L: Lisbon, London, Lyon",
    "to l (from Lisbon): London, Lyon",
    "city M: Madrid, Milan",
  ],
  "progress.ts": [
    "progress 1/3: file 1 of 3",
    "progress 2/3: file 2 of 3",
    "progress 3/3: file 3 of 3",
    "processed 3 files",
  ],
  "logging.ts": [
    '[modern] info worker: {"step":"started"}',
    '[modern] error worker: {"step":"disk full"}',
    '[legacy] info worker: {"step":"started"}',
    '[legacy] error worker: {"step":"disk full"}',
  ],
  "elicitation-form.ts": [
    "[modern] the server asks: How many guests, and when?",
    "[modern] Booked for 4 at 20:30 (modern era)",
    "[legacy] the server asks: How many guests, and when?",
    "[legacy] Booked for 4 at 20:30 (legacy era)",
  ],
  "elicitation-url.ts": [
    "open https://bank.example.com/confirm?invoice=42 (Confirm the payment on the bank's page)",
    "The user went to the payment page",
  ],
  "sampling.ts": [
    "sampling request: Summarize: Cats spend most of the day asleep.",
    "tiny-model says: Cats sleep a lot.",
  ],
  "roots.ts": ["project → file:///home/ada/project", "scratch → file:///tmp/scratch"],
  "tasks.ts": [
    'callTool: {"frames":3,"asTask":true}',
    "created: task string",
    'awaitTask: {"frames":5,"asTask":true} statuses seen: working → completed',
    "getTask after: completed",
    "cancelled: true TaskCancelledError",
  ],
  "subscriptions.ts": [
    '[modern] acknowledged: {"toolsListChanged":true,"resourceSubscriptions":["sensor://temperature"]}',
    "[modern] temperature now 23",
    "[modern] got: notifications/resources/updated, notifications/tools/list_changed | toolsStale: true",
    "[modern] tools: read_sensor, calibrate",
    '[legacy] acknowledged: {"toolsListChanged":true,"resourceSubscriptions":["sensor://temperature"]}',
    "[legacy] temperature now 23",
    "[legacy] got: notifications/resources/updated, notifications/tools/list_changed | toolsStale: true",
    "[legacy] tools: read_sensor, calibrate",
  ],
  "pagination.ts": [
    "page 1: tool_1, tool_2, tool_3, tool_4 | nextCursor: true",
    "page 2: tool_5, tool_6, tool_7, tool_8",
    "listTools(): 10 tools",
    "foreign cursor → error -32602",
  ],
  "serve-http.ts": [
    "listening on http://127.0.0.1:<port>/mcp",
    "auto: era modern, protocol 2026-07-28 | session id: none",
    "modern: era modern, protocol 2026-07-28 | session id: none",
    "legacy: era legacy, protocol 2025-11-25 | session id: yes",
    "legacy-only endpoint, auto client: legacy 2025-11-25",
  ],
  "auth-resource-server.ts": [
    'no token: 401 Bearer scope="notes:read"',
    'metadata: {"servers":["https://auth.example.com"],"scopes":["notes:read","notes:write"]}',
    "ada: You are ada with scopes notes:read notes:write",
    "bob (no notes:read): HTTP 403 Forbidden from <url>",
  ],
  "client-connect.ts": [
    "command array: hello hello",
    "command object: hello",
    "url + withClient: hello",
    "transport: hello modern",
    "createClient + factory: hello 2026-07-28",
  ],
  "client-eras.ts": [
    "auto, dual server: dual → era modern, version 2026-07-28",
    "legacy forced: dual → era legacy, version 2025-11-25",
    "legacy 2025-06-18: dual → era legacy, version 2025-06-18",
    "  legacy server got server/discover → -32601",
    "  legacy server got initialize (client offers 2025-11-25)",
    "auto, legacy-only server: old-server → era legacy, version 2025-03-26",
  ],
  "client-calls.ts": [
    "server: calc | instructions: Call add for sums.",
    "capabilities: completions, logging, prompts, resources, tools",
    "tools: add, fail",
    'add: content {"sum":42} | structured.sum 42 | isError false | parts 1',
    "fail: isError true | the disk is full",
    "unknown tool: McpError -32602 true",
    "readResource: add(a, b) returns a + b",
    "getPrompt: 1 message(s)",
    "ping: ok",
  ],
  "client-timeouts.ts": [
    "per call 50 ms: TimeoutError: Request 2 timed out after 50 ms",
    "session still fine: waited 10 ms",
    "withRequestConfig 50 ms: TimeoutError: Request 4 timed out after 50 ms",
    "progress resets 300 ms: finished",
    "no reset on progress: TimeoutError: Request 6 timed out after 300 ms",
    // The total bound (350 ms) fired, and the message says so.
    "maxTotalTimeout 350 ms: TimeoutError: Request 7 exceeded its total timeout of 350 ms (progress kept it alive until then)",
  ],
  "client-cancellation.ts": [
    "call rejected with: the user pressed stop",
    "server side: ctx.signal aborted",
    "next call works: 1 tool(s)",
  ],
  "client-crash-respawn.ts": [
    "[autoRespawn false] crash: exit code 3, stderr: fatal: out of cheese",
    "[autoRespawn false] next call: ConnectionClosedError true",
    "[autoRespawn true] crash: exit code 3, stderr: fatal: out of cheese",
    "[autoRespawn true] next call ran in a new process: true",
  ],
  "client-oauth.ts": [
    "user sent to: http://127.0.0.1:<port>/authorize",
    "PKCE: S256",
    "authorized by: the toy issuer",
    "tool says: the secret is 42",
  ],
  "client-cache.ts": [
    "listTools ×3 → tools/list requests: 1",
    "readResource ×2 → resources/read requests: 1 | write the docs",
    "after list_changed → tools/list requests: 2 | add_note, archive",
    "after resources/updated → resources/read requests: 2 | ship it",
    "refresh → tools/list requests: 3",
    "cache: false, listTools ×2 → tools/list requests: 2",
  ],
  "client-enterprise-auth.ts": [
    "IdP exchange: id_token → id-jag",
    "AS grant: jwt-bearer from client docs-agent for ada",
    "tool says: hello ada",
  ],
  "skills.ts": [
    'extension: {"io.modelcontextprotocol/skills":{"directoryRead":true}}',
    "skill release-notes: skill://release-notes/SKILL.md (173 B), skill://release-notes/references/STYLE.md (43 B)",
    "skill csv-cleanup: skill://csv-cleanup/SKILL.md (118 B), skill://csv-cleanup/scripts/clean.py (17 B)",
    "release-notes body: List the merged pull requests, group them as in references/STYLE.md, one line each.",
    "STYLE.md: Groups: Added, Changed, Fixed. Past tense.",
    "csv-cleanup license: MIT",
    "skill://csv-cleanup holds: skill://csv-cleanup/SKILL.md text/markdown, skill://csv-cleanup/scripts inode/directory",
    "refused: the digest of skill://release-notes/SKILL.md differs from its entry",
  ],
  "mrtr.ts": [
    "round 1 resultType: input_required",
    'round 1 asks: {"size":{"method":"elicitation/create","params":{"message":"Which size?","requestedSchema":{"type":"object","properties":{"size":{"type":"string"}}}}}}',
    // Checked separately below: the token's first characters.
    "",
    "round 2 resultType: complete true",
    "round 2 result: Order 1001: one large pizza",
    "tampered requestState → error -32602",
    "client: Order 1003: one small pizza (era modern)",
    "handler runs in total: 4",
  ],
  "transport-swap.ts": ['stdio: echo {"via":"stdio"} (era modern)', 'http: echo {"via":"http"} (era modern)'],
  "transport-in-memory.ts": ["in-memory pair: 42", "in-process HTTP: 100 (2 HTTP requests)"],
  "transport-custom.ts": ["answered through a MessageChannel (era modern)"],
  "tool-loop-streaming.ts": [
    "[thinking] Need the forecast first.",
    '[text] "Checking."',
    '[arguments] {"city":"',
    '[arguments] Lisbon"}',
    '[call] weather__forecast {"city":"Lisbon"}',
    "[progress] 1/2",
    "[result] Lisbon: sunny, 24 °C",
    "[step 0 done]",
    '[text] "It "',
    '[text] "will "',
    '[text] "be "',
    '[text] "Lisbon: "',
    '[text] "sunny, "',
    '[text] "24 "',
    '[text] "°C."',
    "[step 1 done]",
    "[finish] stop",
    "answer: It will be Lisbon: sunny, 24 °C.",
    'reasoning kept: [{"provider":"scripted","text":"Need the forecast first."}]',
  ],
  "tool-loop-approval.ts": [
    "asked: files/delete /",
    "asked: files/delete tmp/cache",
    'allowed: files__read {"path":"notes.txt"}',
    'denied: files__delete {"path":"/"}',
    'edited: files__delete {"path":"tmp/cache/old"}',
    "contents of notes.txt",
    'The call of tool "files__delete" was denied by the user: never the root. Do not retry it as it is.',
    "deleted tmp/cache/old",
  ],
  "tool-loop-control.ts": [
    "offered: ops__status, ops__slow_report, ops__unlock",
    "  ops__status → all green",
    "  ops__unlock → unlocked",
    '  ops__slow_report → Tool "ops__slow_report" timed out after 50 ms and was cancelled',
    "step 1 sees: ops__status, ops__slow_report, ops__secret",
    '  ops__unlock → Unknown tool "ops__unlock". Available tools: ops__status, ops__slow_report, ops__secret',
    "  ops__secret → the secret is 42",
    "  ops__status → all green",
    "finish: max-steps after 3 model calls",
  ],
  "token-store.ts": [
    "mode: 600",
    "login: https://mcp.example.com/mcp at https://auth.example.com, expires 2030-01-01T00:00:00.000Z",
    "forgotten: 1",
    "left: 0",
  ],
  "tool-loop.ts": [
    "tools: weather__forecast, packing__suggest",
    "step 0: weather__forecast → Lisbon: sunny, 24 °C",
    "step 1: packing__suggest → sunscreen, hat",
    "answer: Pack sunscreen, hat for Lisbon. | finishReason stop, 3 steps",
  ],
  "jsonrpc-peer.ts": [
    "sum: 6",
    'divide: JsonRpcError -32602 b must not be 0 {"field":"b"}',
    "unknown method: -32601",
    "progress seen: 1,2,3",
    "hang: true",
    'server got notification: {"hello":"world"}',
    "framed: 2 messages; request,notification",
  ],
  "protocol-layer.ts": [
    "versions: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05",
    "latest: 2026-07-28 modern | latest legacy: 2025-11-25",
    'tools/call: {"direction":"client-to-server","kind":"request","capability":{"side":"server","path":["tools"]}}',
    "header: mcp-name = =?base64?aMOpbGxv?= → héllo",
    'text block: {"type":"text","text":"hi"}',
    "discover: supports 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05",
    'tools/call: complete [{"type":"text","text":"hello, by hand"}]',
    'unsupported version: -32022 {"supported":["2026-07-28"],"requested":"1999-01-01"}',
  ],
};

const bridges: Record<string, (origin: string) => Record<string, string>> = {
  "bridge-openai.ts": (origin) => ({ OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: `${origin}/v1` }),
  "bridge-ai-sdk.ts": (origin) => ({ OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: `${origin}/v1` }),
  "bridge-anthropic.ts": (origin) => ({ ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: origin }),
};
// Run by the CLI tests below rather than on their own.
const special = new Set([
  "serve-stdio.ts",
  "cli-server.ts",
  "opentelemetry.ts",
  // Run by guide-examples.test.ts (the documentation site's guides).
  "migrate-sdk-v1.ts",
  "migrate-sdk-v2.ts",
  "migrate-mcpkit.ts",
  "testing-in-process.ts",
  // Run by testing-cassettes.test.ts (a node:test file).
  "testing-cassettes.ts",
  "mcp-apps.ts",
  "scale-out-redis.ts",
]);

describe("every example file is run by this test and linked from the README", () => {
  it("covers every file", () => {
    const covered = new Set([...Object.keys(exact), ...Object.keys(bridges), ...special]);
    expect(exampleFiles.filter((f) => !covered.has(f))).toEqual([]);
    expect([...covered].filter((f) => !exampleFiles.includes(f))).toEqual([]);
  });

  it("links every example from README.md, and every link resolves", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const linked = new Set([...readme.matchAll(/\]\(examples\/([\w.-]+)\)/g)].map((m) => m[1]!));
    expect(exampleFiles.filter((f) => !linked.has(f))).toEqual([]);
    const existing = new Set(readdirSync(examplesDir));
    expect([...linked].filter((f) => !existing.has(f))).toEqual([]);
  });
});

describe.concurrent("examples run and print what the docs say", () => {
  for (const [name, lines] of Object.entries(exact)) {
    it(name, async () => {
      const output = await runExample(name);
      if (name === "auth-resource-server.ts") {
        // The error names the URL, whose port is ephemeral.
        output[3] = output[3]!.replace(/ from http:\/\/127\.0\.0\.1:\d+\/mcp$/, " from <url>");
      }
      if (name === "mrtr.ts") {
        expect(output[2]).toMatch(/^requestState is opaque: string [A-Za-z0-9_-]{12}…$/);
        output[2] = "";
      }
      expect(output).toEqual(lines);
    });
  }

  it("serve-stdio.ts", async () => {
    const output = await runExample("serve-stdio.ts");
    expect(output).toContain("connected: stdio-demo era modern");
    expect(output).toContain("Hello, Ada! (from process <pid>)");
  });

  it("opentelemetry.ts: the console exporter prints one trace, the user's span above client and server", async () => {
    const output = (await runExample("opentelemetry.ts")).join("\n");
    expect(output).toContain("result: Lisbon: sunny, 24 °C");
    // ConsoleSpanExporter prints each span as an object (ids and times vary): read the fields back.
    const spans = output
      .split(/^}$/m)
      .filter((block) => block.includes("instrumentationScope"))
      .map((block) => ({
        scope: /instrumentationScope: \{ name: '([^']+)'/.exec(block)?.[1],
        name: /^ {2}name: '([^']+)',$/m.exec(block)?.[1],
        kind: Number(/^ {2}kind: (\d),$/m.exec(block)?.[1]),
        traceId: /^ {2}traceId: '(\w+)',$/m.exec(block)?.[1],
        id: /^ {2}id: '(\w+)',$/m.exec(block)?.[1],
        parent: /parentSpanContext: \{\n\s+traceId: '\w+',\n\s+spanId: '(\w+)'/.exec(block)?.[1],
        tool: /'gen_ai\.tool\.name': '([^']+)'/.exec(block)?.[1],
      }));
    const find = (scope: string, name: string) => spans.find((s) => s.scope === scope && s.name === name);
    const root = find("docs", "plan trip");
    const call = find("@mcpkit/client", "tools/call get_weather");
    const served = find("@mcpkit/server", "tools/call get_weather");
    expect([call?.kind, served?.kind, call?.tool, served?.tool]).toEqual([
      2,
      1,
      "get_weather",
      "get_weather",
    ]);
    expect(call?.parent).toBe(root?.id);
    expect(served?.parent).toBe(call?.id);
    expect(new Set([root?.traceId, call?.traceId, served?.traceId]).size).toBe(1);
  });
});

describe("bridge examples against a loopback scripted provider (real SDKs, no keys)", () => {
  let provider: ScriptedProvider;
  beforeAll(async () => {
    provider = await startScriptedProvider();
  });
  afterAll(async () => {
    await provider?.close();
  });

  for (const [name, env] of Object.entries(bridges)) {
    it(name, async () => {
      const before = provider.paths.length;
      const output = await runExample(name, env(provider.origin));
      const toolLine =
        name === "bridge-ai-sdk.ts"
          ? 'tool weather__get_forecast → {"content":"Lisbon: sunny, 24 °C","isError":false}'
          : "tool weather__get_forecast → Lisbon: sunny, 24 °C";
      expect(output).toEqual([toolLine, "answer: Forecast: Lisbon: sunny, 24 °C"]);
      const path = name === "bridge-anthropic.ts" ? "/v1/messages" : "/v1/chat/completions";
      expect(provider.paths.slice(before)).toEqual([path, path]);
    });
  }
});

describe("the CLI commands of the README, against examples/cli-server.ts", () => {
  let bin: string;
  let server: string;
  beforeAll(async () => {
    [bin, server] = await Promise.all([
      bundleFixture(join(root, "..", "..", "packages", "mcpkit", "src", "bin.ts")),
      bundleFixture(join(examplesDir, "cli-server.ts")),
    ]);
  });
  const cli = (...args: string[]) => runNode(bin, args);

  it("inspect, tools, call, read and prompt over stdio", async () => {
    const target = ["--", process.execPath, server];
    const inspect = await cli("inspect", ...target);
    expect(inspect.stdout).toMatch(/^server\s+cli-demo 1\.0\.0$/m);
    expect(inspect.stdout).toMatch(/^era\s+modern$/m);
    expect(inspect.stdout).toMatch(/^tools\s+3$/m);
    expect((await cli("tools", ...target)).stdout).toMatch(
      /^add\s+\(a: number, b: number\) Adds two numbers$/m,
    );
    const call = await cli("call", "add", "--arg", "a=2", "--arg", "b=3", ...target);
    expect([call.code, call.stdout]).toEqual([0, "5\n"]);
    const json = await cli("call", "add", "--json", '{"a":40,"b":2}', ...target);
    expect(json.stdout).toBe("42\n");
    const failed = await cli("call", "fail", ...target);
    expect(failed.code).toBe(1);
    expect(failed.stdout + failed.stderr).toContain("this tool always fails");
    expect((await cli("read", "demo://motd", ...target)).stdout).toBe("Have a nice day\n");
    expect((await cli("prompt", "haiku", "--arg", "topic=rain", ...target)).stdout).toBe(
      "user: Write a haiku about rain.\n",
    );
  });

  it("tools over HTTP and from an mcpServers config file", async () => {
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, [server, "--http", "0"], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("cli-server did not print its URL")), 10_000);
        child.stdout.setEncoding("utf8").once("data", (chunk: string) => {
          clearTimeout(timer);
          resolve(chunk.trim());
        });
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect((await cli("tools", url)).stdout).toMatch(
        /^slow_count\s+\(n: integer\) Counts to n with progress$/m,
      );
      const listed = await runNode(
        bin,
        ["tools", "--json", "--config", "examples/mcp.json", "--server", "demo"],
        { NODE: process.execPath, DEMO_SERVER: server },
      );
      expect(JSON.parse(listed.stdout).map((t: { name: string }) => t.name)).toEqual([
        "add",
        "slow_count",
        "fail",
      ]);
      // A URL is never expanded (no ${VAR} there): the config names the README's port, the test's copy its own.
      const config = join(mkdtempSync(join(tmpdir(), "mcpkit-docs-")), "mcp.json");
      const example = readFileSync(join(examplesDir, "mcp.json"), "utf8");
      writeFileSync(config, example.replace("http://127.0.0.1:8080/mcp", url));
      const overHttp = await runNode(bin, ["inspect", "--json", "--config", config, "--server", "demo-http"]);
      expect(JSON.parse(overHttp.stdout)).toMatchObject({ era: "modern" });
    } finally {
      child.kill();
    }
  });
});
