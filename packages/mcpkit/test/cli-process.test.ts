// The CLI run as a user runs it: its bin entry bundled into one script, started with plain node in a
// child process. Exact output and exit codes for the errors a newcomer meets in the first hour, and the
// `tools` listing.
import { createServer as createNetServer } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, McpError, type RunningServer, serve } from "../src/index.js";
import { type CliRun, runCli } from "./cli-runner.js";

const FIXTURES = path.join(import.meta.dirname, "fixtures", "cli");

/** Runs the bundled CLI in the fixtures folder. */
function mcpkit(...args: string[]): Promise<CliRun> {
  return runCli(args, { cwd: FIXTURES });
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let running: RunningServer;
let base: string;

beforeAll(async () => {
  const server = createServer({ name: "demo", version: "1.0.0" });
  server.registerTool(
    "forecast",
    {
      description: "Forecast for a city\nSecond line not shown",
      inputSchema: {
        type: "object",
        properties: {
          city: { type: "string" },
          days: { type: "integer" },
          unit: { enum: ["C", "F"] },
          tags: { type: "array", items: { type: "string" } },
        },
        required: ["city"],
      },
    },
    () => "sunny",
  );
  server.registerTool("ping", { description: "Answers pong" }, () => "pong");
  server.registerTool(
    "strict",
    { description: "Throws a wire error", inputSchema: { type: "object", properties: {} } },
    () => {
      throw new McpError(-32602, "MCP error -32602: days must be at most 14");
    },
  );
  running = await serve(server, { transport: "http", port: 0, block: false, onListening: () => {} });
  base = running.url.replace(/\/mcp$/, "");
});

afterAll(async () => {
  await running?.close();
});

describe("mcpkit CLI errors that name the cause (built CLI, child process)", () => {
  it("1. a server that dies at start: one line, then the last lines of its stderr", async () => {
    expect(await mcpkit("tools", "--", "node", "fails-at-start.mjs")).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'mcpkit: server "node fails-at-start.mjs" exited with code 3; its last stderr lines:\n' +
        "  weather-server: starting\n" +
        "  Error: WEATHER_API_KEY is not set\n",
    });
  });

  it("1. a script that does not exist: node's own words are shown", async () => {
    const run = await mcpkit("tools", "--", "node", "does-not-exist.js");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^mcpkit: server "node does-not-exist\.js" exited with code 1; its last stderr lines:\n/,
    );
    expect(run.stderr).toContain(`  Error: Cannot find module '${path.join(FIXTURES, "does-not-exist.js")}'`);
  });

  it("2. a server that prints junk and never answers: the connect timeout names the phase and quotes the line", async () => {
    expect(await mcpkit("tools", "--connect-timeout", "300", "--", "node", "prints-junk.mjs")).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'mcpkit: connect() timed out after 300 ms: no answer to server/discover. The server wrote a line that is not JSON-RPC: "Weather server v2 listening on stdio" (over stdio, logs belong on stderr)\n',
    });
  });

  it("2. --timeout bounds the handshake too", async () => {
    const run = await mcpkit("tools", "--timeout", "300", "--", "node", "prints-junk.mjs");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^mcpkit: connect\(\) timed out after 300 ms: no answer to server\/discover\./,
    );
  });

  it("3. nothing listening: connection refused, named", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    expect(await mcpkit("tools", url)).toEqual({
      code: 1,
      stdout: "",
      stderr: `mcpkit: HTTP POST ${url} failed: connection refused (ECONNREFUSED)\n`,
    });
  });

  it("3. a host that does not resolve: host not found, named", async () => {
    const run = await mcpkit("tools", "http://no-such-host.invalid/mcp");
    expect(run.code).toBe(1);
    // Resolvers differ in the code they give a name that does not exist (ENOTFOUND, or EAI_AGAIN offline).
    expect(run.stderr).toMatch(
      /^mcpkit: HTTP POST http:\/\/no-such-host\.invalid\/mcp failed: host (not found \(ENOTFOUND\)|name lookup failed \(EAI_AGAIN\))\n$/,
    );
  });

  it("3. a wrong path: HTTP 404 from the URL", async () => {
    expect(await mcpkit("tools", `${base}/wrong`)).toEqual({
      code: 1,
      stdout: "",
      stderr: `mcpkit: HTTP 404 Not Found from ${base}/wrong\n`,
    });
  });

  it("3. an error code is printed once", async () => {
    expect(await mcpkit("call", running.url, "strict")).toEqual({
      code: 1,
      stdout: "",
      stderr: "mcpkit: MCP error -32602: days must be at most 14\n",
    });
  });

  it("4. --config without --server lists the file's servers (exit 2)", async () => {
    expect(await mcpkit("tools", "--config", "mcp.json")).toEqual({
      code: 2,
      stdout: "",
      stderr: "mcpkit: --config needs --server NAME (mcp.json has: weather, search)\n",
    });
  });

  it("4. a server the file does not have is a usage error (exit 2)", async () => {
    expect(await mcpkit("tools", "--config", "mcp.json", "--server", "maps")).toEqual({
      code: 2,
      stdout: "",
      stderr: 'mcpkit: mcp.json: no server "maps" in the config file (it has: weather, search)\n',
    });
  });

  it("4. usage errors exit 2", async () => {
    expect(await mcpkit("tools")).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "mcpkit: tools needs a target: an http(s) URL (before or after the name), -- command args… (last on the line), or --config FILE --server NAME\n",
    });
    expect(await mcpkit("tools", "--connect-timeout", "soon", running.url)).toEqual({
      code: 2,
      stdout: "",
      stderr: "mcpkit: --connect-timeout expects a positive number of milliseconds, got soon\n",
    });
  });
});

describe("mcpkit tools (built CLI, child process)", () => {
  it("shows each tool's parameters compactly", async () => {
    expect(await mcpkit("tools", running.url)).toEqual({
      code: 0,
      stdout:
        'forecast  (city: string, days?: integer, unit?: "C"|"F", tags?: string[]) Forecast for a city\n' +
        "ping      Answers pong\n" +
        "strict    Throws a wire error\n",
      stderr: "",
    });
  });

  it("--json keeps the raw form", async () => {
    const run = await mcpkit("tools", "--json", running.url);
    expect(run.code).toBe(0);
    const tools = JSON.parse(run.stdout) as Array<{ name: string; inputSchema: unknown }>;
    expect(tools[0]).toMatchObject({ name: "forecast", inputSchema: { required: ["city"] } });
  });
});
