// Opens a client on the everything server over each way a user reaches it: the in-memory pair, a real
// child process over stdio (the bundled main.ts, through mcpkit's connect), and real HTTP on 127.0.0.1
// (mcpkit's serve + connect). Records what the client's handlers and callbacks saw.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Client, type ClientOptions, createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import type {
  CreateMessageRequestParams,
  ElicitRequestParams,
  ElicitResult,
  LoggingMessageNotificationParams,
  ProtocolEra,
} from "@mcpkit/protocol";
import { bundleFixture } from "@mcpkit/test-kit";
import { connect, type RunningServer, serve } from "mcpkit";
import { createEverythingServer, type EverythingServer } from "../src/server.js";

export type Via = "memory" | "stdio" | "http";
export type Era = Exclude<ProtocolEra, undefined>;

const here = path.dirname(fileURLToPath(import.meta.url));
export const mainEntry = path.resolve(here, "../src/main.ts");

/** The bundled `src/main.ts`, runnable with plain `node` (built once per test process). */
export function bundledMain(): Promise<string> {
  return bundleFixture(mainEntry);
}

/** What the client's input handlers and log callback were given. */
export interface Recorder {
  logs: LoggingMessageNotificationParams[];
  elicitations: Array<{ params: ElicitRequestParams; era: Era }>;
  samplings: Array<{ params: CreateMessageRequestParams; era: Era }>;
  rootsCalls: Era[];
  /** The next answer of the elicitation handler. */
  elicitAnswer: ElicitResult;
}

export interface Connection {
  client: Client;
  rec: Recorder;
  /** The in-process server, when there is one (memory, http). */
  server: EverythingServer | undefined;
  close(): Promise<void>;
}

export const ROOTS = [
  { uri: "file:///home/ann/project", name: "project" },
  { uri: "file:///tmp", name: "scratch" },
];

function clientOptions(era: Era, rec: Recorder): Omit<ClientOptions, "name" | "version"> {
  return {
    versionNegotiation: era,
    tasks: true,
    requestTimeout: 20_000,
    handlers: {
      elicitation: (params, ctx) => {
        rec.elicitations.push({ params, era: ctx.era });
        return rec.elicitAnswer;
      },
      sampling: (params, ctx) => {
        rec.samplings.push({ params, era: ctx.era });
        const first = params.messages[0]?.content;
        const asked = first && !Array.isArray(first) && first.type === "text" ? first.text : "";
        return {
          role: "assistant",
          model: "scripted-model-1",
          content: { type: "text", text: `SUMMARY<${asked.length} chars>` },
          stopReason: "endTurn",
        };
      },
      roots: (ctx) => {
        rec.rootsCalls.push(ctx.era);
        return ROOTS;
      },
    },
    onLog: (params) => rec.logs.push(params),
  };
}

/** Connects a client over `via` in `era`; `close()` closes the client and whatever was started. */
export async function open(via: Via, era: Era, serverOptions = { tickMs: 0 }): Promise<Connection> {
  const rec: Recorder = {
    logs: [],
    elicitations: [],
    samplings: [],
    rootsCalls: [],
    elicitAnswer: { action: "accept", content: { name: "Ann", color: "blue" } },
  };
  const options = clientOptions(era, rec);
  if (via === "memory") {
    const server = createEverythingServer(serverOptions);
    const client = createClient({ name: "everything-test", version: "1.0.0", ...options });
    try {
      const [clientSide, serverSide] = createInMemoryPair();
      await server.connect(serverSide);
      await client.connect(clientSide);
    } catch (error) {
      await client.close();
      await server.close();
      throw error;
    }
    return {
      client,
      rec,
      server,
      close: async () => {
        await client.close();
        await server.close();
      },
    };
  }
  if (via === "stdio") {
    const entry = await bundledMain();
    const client = await connect(
      { command: process.execPath, args: [entry, "stdio", "--tick-ms", String(serverOptions.tickMs)] },
      { ...options, name: "everything-test", stderr: "pipe" },
    );
    return { client, rec, server: undefined, close: () => client.close() };
  }
  const server = createEverythingServer(serverOptions);
  let http: RunningServer | undefined;
  try {
    http = await serve(server, { transport: "http", port: 0, block: false, onListening: () => {} });
    const client = await connect(http.url, { ...options, name: "everything-test" });
    const running = http;
    return {
      client,
      rec,
      server,
      close: async () => {
        try {
          await client.close();
        } finally {
          await running.close();
          await server.close();
        }
      },
    };
  } catch (error) {
    await http?.close();
    await server.close();
    throw error;
  }
}

/**
 * Resolves with the next item of `iterator` that `match` accepts, failing after `ms`. Pulls with
 * `next()` (not `for await`), so the stream stays open for later reads.
 */
export async function firstMatching<T>(
  iterator: AsyncIterator<T>,
  match: (item: T) => boolean,
  ms = 10_000,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no matching item within ${ms} ms`)), ms);
  });
  const search = (async () => {
    for (;;) {
      const next = await iterator.next();
      if (next.done) throw new Error("the stream ended before a matching item arrived");
      if (match(next.value)) return next.value;
    }
  })();
  try {
    return await Promise.race([search, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
