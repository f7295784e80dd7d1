// A hostile server's outputSchema patterns, as the client meets them (issue 25, item 4).
import { afterEach, describe, expect, it } from "vitest";
import { type Client, createClient, OutputValidationError } from "../src/index.js";
import { type Handler, type Responder, responder } from "./helpers.js";

const open: Array<Client | Responder> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function hostile(outputSchema: Record<string, unknown>, structuredContent: unknown): Promise<Client> {
  const handlers: Record<string, Handler> = {
    "server/discover": () => ({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {} },
      ttlMs: 0,
      cacheScope: "public",
    }),
    "tools/list": () => ({
      resultType: "complete",
      tools: [{ name: "t", inputSchema: { type: "object" }, outputSchema }],
      ttlMs: 0,
    }),
    "tools/call": () => ({ resultType: "complete", content: [], structuredContent }),
  };
  const r = await responder(handlers, { perRequestStream: false });
  open.push(r);
  const c = createClient({ name: "t", version: "1" });
  open.push(c);
  await c.connect(r.transport);
  await c.listTools();
  return c;
}

describe("[issue-25.4] a server-supplied outputSchema pattern", () => {
  // The run of ^(a+)+$ on a long value is proven in a child process (json-schema's lazy-ajv.test.ts, where a
  // 20 s bound kills a backtracking engine); here, the client's verdict on it through a whole call.
  it("[issue-25.4] ^(a+)+$ against a 10 000-character value gets its mismatch through a whole call", async () => {
    const c = await hostile(
      { type: "object", properties: { v: { type: "string", pattern: "^(a+)+$" } } },
      { v: `${"a".repeat(10_000)}!` },
    );
    const error = await c.callTool("t").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputValidationError);
    expect((error as Error).message).toMatch(/does not match its outputSchema: \/v must match pattern/);
  });

  it("[issue-25.4] a lookaround pattern is refused, and the call says the outputSchema cannot be used", async () => {
    const c = await hostile(
      { type: "object", properties: { v: { type: "string", pattern: "^(?=(a+)+$)" } } },
      { v: "aaa" },
    );
    const error = await c.callTool("t").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputValidationError);
    expect((error as Error).message).toMatch(
      /outputSchema of tool "t" cannot be used: .*"pattern" "\^\(\?=\(a\+\)\+\$\)" is refused: a lookaround cannot run in linear time/,
    );
  });
});
