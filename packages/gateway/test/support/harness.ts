// Shared set-up of the gateway tests: the fixture upstream as a real child process, a gateway on a
// loopback port, and our client pinned to one era in front of it.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type Client, type ClientOptions, createClient, type InputHandlers } from "@mcpkit/client";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import {
  type AuditRecord,
  createGateway,
  type Gateway,
  type GatewayEndpoint,
  parseGatewayConfig,
} from "../../src/index.js";

export const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const fixture = fileURLToPath(new URL("../fixtures/upstream.ts", import.meta.url));

/** The `mcpServers` entry that spawns the fixture over stdio. */
export function fixtureEntry(env: Record<string, string> = {}) {
  return {
    command: process.execPath,
    args: ["--conditions=@mcpkit/source", "--import", "tsx", fixture, "stdio"],
    cwd: packageDir,
    env,
  };
}

/** Starts the fixture as an HTTP server of one era; resolves with its URL and a way to stop it. */
export async function startHttpFixture(
  era: "modern" | "legacy" = "modern",
): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    ["--conditions=@mcpkit/source", "--import", "tsx", fixture, `http-${era}`],
    {
      cwd: packageDir,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`the fixture printed no URL in 20 s: ${seen}`)), 20_000);
    child.stdout.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /URL (\S+)/.exec(seen);
      if (found) {
        clearTimeout(timer);
        resolve(found[1] as string);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the fixture exited with ${code}: ${seen}`));
    });
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** A started gateway on a loopback port, its audit lines collected. */
export interface RunningGateway {
  gateway: Gateway;
  endpoint: GatewayEndpoint;
  audit: AuditRecord[];
  errors: Error[];
  close(): Promise<void>;
}

/** Parses `config`, starts the gateway and listens on a free loopback port. */
export async function startGateway(
  config: unknown,
  env: Record<string, string | undefined> = {},
): Promise<RunningGateway> {
  const audit: AuditRecord[] = [];
  const errors: Error[] = [];
  const gateway = createGateway({
    config: parseGatewayConfig(config, { file: "test.json", env }),
    audit: (record) => audit.push(record),
    onError: (error) => errors.push(error),
  });
  try {
    await gateway.start();
  } catch (error) {
    await gateway.close();
    throw error;
  }
  const endpoint = await gateway.listen();
  return { gateway, endpoint, audit, errors, close: () => gateway.close() };
}

/** Our client pinned to one era, connected to the gateway (optionally with an API key). */
export async function connectClient(
  url: string,
  era: "modern" | "legacy",
  options: { handlers?: InputHandlers; apiKey?: string; onLog?: ClientOptions["onLog"] } = {},
): Promise<Client> {
  const client = createClient({
    name: "gateway-test",
    version: "1.0.0",
    versionNegotiation: era,
    ...(options.handlers ? { handlers: options.handlers } : {}),
    ...(options.onLog ? { onLog: options.onLog } : {}),
  });
  const headers: Record<string, string> = options.apiKey ? { "x-api-key": options.apiKey } : {};
  await client.connect(() => createStreamableHttpClientTransport({ url: new URL(url), era, headers }));
  return client;
}

/** Resolves with `promise`, or rejects naming `what` after `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
    }),
  ]);
}
