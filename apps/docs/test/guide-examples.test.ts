// The examples written for the guides of the documentation site (apps/site): migrating from the official
// SDK, testing in-process, MCP Apps, scale-out on Redis. Each runs as a user would run it and its output is
// checked, like the others in examples.test.ts (which lists them as run here).
import { createConnection } from "node:net";
import { describe, expect, it } from "vitest";
import { exampleLines } from "./run-example.js";

/** Why Redis cannot be used (undefined when it answers a PING), bounded by 2 s. */
function redisUnreachable(
  url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
): Promise<string | undefined> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    const done = (reason: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reason);
    };
    const timer = setTimeout(() => done(`no answer from ${url} in 2 s`), 2_000);
    socket.once("error", (error) => done(`${url}: ${error.message}`));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG") ? undefined : `${url}: ${data}`));
  });
}

const sameProgram = [
  "tools: forecast",
  "forecast → Lisbon: sunny, 24 °C | isError: false",
  "cities → Lisbon, Porto",
];

describe.concurrent("the guides' examples run and print what the guides say", () => {
  for (const name of ["migrate-sdk-v1.ts", "migrate-sdk-v2.ts", "migrate-mcpkit.ts"]) {
    it(`${name}: the same program, the same output`, async () => {
      expect(await exampleLines(name)).toEqual(sameProgram);
    });
  }

  it("testing-in-process.ts: node:test runs both eras and both pass", async () => {
    const output = await exampleLines("testing-in-process.ts");
    expect(output).toContain("ok 1 - forecast (modern)");
    expect(output).toContain("ok 2 - forecast (legacy)");
    expect(output).toContain("# fail 0");
  });

  it("mcp-apps.ts", async () => {
    expect(await exampleLines("mcp-apps.ts")).toEqual([
      'tool ui: {"resourceUri":"ui://weather/dashboard","visibility":["model","app"]}',
      "view: text/html;profile=mcp-app 51 chars",
      "host gets: Shown in the dashboard.",
      "plain client gets: Sunny, 21 °C.",
    ]);
  });

  it("scale-out-redis.ts: each request on the other instance, in both eras", async (context) => {
    const unreachable = await redisUnreachable();
    if (unreachable !== undefined) {
      if (process.env.CI === "true") throw new Error(`Redis is required under CI=true: ${unreachable}`);
      console.warn(`Skipping scale-out-redis.ts: ${unreachable} (start redis-server or set REDIS_URL)`);
      context.skip();
    }
    const [modern, legacy] = await exampleLines("scale-out-redis.ts");
    expect(modern).toMatch(
      /^\[modern\] one large pizza, finished on [AB] \| calls served by (A B A B|B A B A)$/,
    );
    expect(legacy).toMatch(
      /^\[legacy\] one large pizza, finished on [AB] \| calls served by (A B A B|B A B A)$/,
    );
  });
});
