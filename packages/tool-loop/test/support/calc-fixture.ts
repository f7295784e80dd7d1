import type { Client } from "@mcpkit/client";
import { afterAll, afterEach, beforeAll } from "vitest";
import { connectCalcServer, type StderrLines, stderrLines } from "./calc-server.js";
import { type ProviderServer, startProviderServer } from "./provider-server.js";

/** What {@link useCalcFixture} hands a test file; read its members inside tests, after `beforeAll` ran. */
export interface CalcFixture<T> {
  /** The client on the calc server, connected once for the file. */
  readonly mcp: Client;
  /** What `toolsOf` made of {@link mcp}. */
  readonly tools: T;
  /** The calc server's stderr lines; empty unless `captureStderr` was set (otherwise it is inherited). */
  readonly stderr: StderrLines;
  /** Starts a scripted provider that is closed after the current test. */
  startProvider(reply: Parameters<typeof startProviderServer>[0]): Promise<ProviderServer>;
}

/**
 * The shared fixture of the bridges' end-to-end tests: a real MCP client on the calc server (a child
 * process over stdio) for the whole file, the tools `toolsOf` builds from it, and scripted providers
 * that live for one test each. Call it at the top of a `describe` (it registers the hooks there).
 */
export function useCalcFixture<T>(
  toolsOf: (mcp: Client) => Promise<T>,
  options: { captureStderr?: boolean } = {},
): CalcFixture<T> {
  let mcp: Client | undefined;
  let tools: T | undefined;
  let provider: ProviderServer | undefined;
  const stderr = stderrLines();

  beforeAll(async () => {
    mcp = await connectCalcServer(options.captureStderr ? { onStderr: (line) => stderr.push(line) } : {});
    tools = await toolsOf(mcp);
  });
  afterAll(async () => {
    await mcp?.close();
  });
  afterEach(async () => {
    await provider?.close();
    provider = undefined;
  });

  return {
    get mcp() {
      if (!mcp) throw new Error("the calc server is connected in beforeAll; read mcp inside a test");
      return mcp;
    },
    get tools() {
      if (tools === undefined) throw new Error("the tools are made in beforeAll; read tools inside a test");
      return tools;
    },
    stderr,
    async startProvider(reply) {
      provider = await startProviderServer(reply);
      return provider;
    },
  };
}
