// Isolation between clients of ONE server (one registry, every connection): 20 clients at once with
// distinct identities — bearer tokens through serve({ protect }) and plain ones, both eras, HTTP and
// stdio — each with a progress call, a log, an elicitation answer, a subscription and (modern) a task in
// flight together. Each client must get exactly its own: its identity back, its own progress (all of it,
// and only its), its own answer, its own resource updates, its own task; and no byte of another client's
// secret, subject or task id ever reaches its wire (every inbound message is scanned).
//
// Why it catches a cross-client leak: every client's calls are held open at a barrier until all 20 are
// in flight, so a server that sent a message to the wrong connection (say, progress to the last
// connection made) would hand it to a client that is listening: that client sees a secret that is not
// its own (the wire scan), and the rightful one misses a progress step (the count).
import { PassThrough } from "node:stream";
import { type AuthInfo, createProtectedResource, type TokenVerifier } from "@mcpkit/auth";
import { createStreamTransport } from "@mcpkit/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createServer, type RunningServer, type Server, serve } from "../src/index.js";
import { freePort } from "./free-port.js";

type Era = "modern" | "legacy";
interface Spec {
  name: string;
  secret: string;
  era: Era;
  via: "http-token" | "http-plain" | "stdio";
  /** The token's subject, for clients with a token. */
  subject?: string;
}

const N = 20;
const run = Math.random().toString(36).slice(2, 8);
const specs: Spec[] = Array.from({ length: N }, (_, i) => {
  const via = i < 12 ? "http-token" : i < 16 ? "http-plain" : "stdio";
  const spec: Spec = {
    name: `client-${i}-${run}`,
    secret: `secret-${i}-${run}`,
    era: i % 2 ? "legacy" : "modern",
    via,
  };
  if (via === "http-token") spec.subject = `subject-${i}-${run}`;
  return spec;
});
const tokenOf = (spec: Spec) => `token-${spec.subject}`;
const uriOf = (spec: Spec) => `iso://${spec.secret}`;

let resourceUrl = "";
const verifier: TokenVerifier = {
  async verify(token): Promise<AuthInfo> {
    const spec = specs.find((s) => s.subject !== undefined && tokenOf(s) === token);
    if (!spec) throw new Error("unknown token");
    return { subject: spec.subject!, scopes: [], audience: [resourceUrl], claims: { sub: spec.subject } };
  },
};

/**
 * `arrive()` resolves once `n` callers arrived (holds every client's call open until all are in
 * flight); `all` resolves then too, for whoever waits without arriving.
 */
function barrier(n: number) {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((r) => (open = r));
  const arrive = () => {
    if (++arrived === n) open();
    return all;
  };
  return Object.assign(arrive, { all });
}

function isolationServer(): Server {
  const server = createServer({ name: "isolation", version: "1.0.0", requestStateKey: `key-${run}` });
  const secretArg = {
    type: "object",
    properties: { secret: { type: "string" } },
    required: ["secret"],
  } as const;
  server.registerTool("whoami", {}, (_args, ctx) =>
    JSON.stringify({
      subject: (ctx.authInfo as AuthInfo | undefined)?.subject ?? null,
      client: ctx.client.info?.name ?? null,
      session: (ctx.transportInfo as { sessionId?: string } | undefined)?.sessionId ?? null,
    }),
  );
  const working = barrier(N);
  server.registerTool("work", { inputSchema: secretArg }, async ({ secret }, ctx) => {
    await ctx.progress(1, 3, `progress ${secret}`);
    await ctx.log("info", `log ${secret}`);
    await working();
    await ctx.progress(2, 3, `progress ${secret}`);
    await ctx.progress(3, 3, `progress ${secret}`);
    return `worked ${secret}`;
  });
  // Only legacy calls wait here: a modern attempt ends at its elicit and comes back with the answer.
  const asking = barrier(N / 2);
  server.registerTool("ask", { inputSchema: secretArg }, async ({ secret }, ctx) => {
    if (ctx.era === "legacy") await asking();
    const answer = await ctx.elicit({
      message: `answer for ${secret}?`,
      requestedSchema: { type: "object", properties: { secret: { type: "string" } }, required: ["secret"] },
    });
    return `asked ${secret} answered ${String(answer.content?.secret)}`;
  });
  const jobs = barrier(N / 2);
  server.registerTool("job", { inputSchema: secretArg, taskSupport: "optional" }, async ({ secret }) => {
    await jobs();
    return `job ${secret}`;
  });
  server.registerResourceTemplate("iso://{secret}", { name: "iso" }, (uri) => `state of ${uri}`);
  return server;
}

interface Seen {
  spec: Spec;
  /** Every message the client received, as JSON text. */
  inbound: string[];
  violations: string[];
}

describe("isolation: 20 clients of one server, both eras, HTTP (tokens and plain) and stdio", () => {
  const server = isolationServer();
  let protectedHttp: RunningServer;
  let plainHttp: RunningServer;
  const stdioStreams: PassThrough[] = [];

  beforeAll(async () => {
    // The resource URL must be known before the verifier runs: a free port first.
    const port = await freePort();
    resourceUrl = `http://127.0.0.1:${port}/mcp`;
    const protect = createProtectedResource({
      resource: resourceUrl,
      authorizationServers: ["https://auth.example.com"],
      verifier,
    });
    protectedHttp = await serve(server, { transport: "http", port, block: false, protect, onListening() {} });
    plainHttp = await serve(server, { transport: "http", port: 0, block: false, onListening() {} });
  });
  afterAll(async () => {
    for (const s of stdioStreams) s.end();
    await protectedHttp?.close();
    await plainHttp?.close();
    await server.close();
  });

  /** Connects one client as its spec says; every inbound message is kept for the scan. */
  async function open(spec: Spec, seen: Seen) {
    const options = {
      name: spec.name,
      versionNegotiation: spec.era,
      capabilities: { elicitation: { form: {} } },
      tasks: spec.era === "modern",
      handlers: {
        elicitation: async (params: { message: string }) => {
          if (!params.message.includes(spec.secret)) seen.violations.push(`asked: ${params.message}`);
          return { action: "accept" as const, content: { secret: spec.secret } };
        },
      },
      onMessage: (event: { direction: string; message: unknown }) => {
        if (event.direction === "in") seen.inbound.push(JSON.stringify(event.message));
      },
      connectTimeout: 20_000,
    };
    if (spec.via === "stdio") {
      const toServer = new PassThrough();
      const toClient = new PassThrough();
      stdioStreams.push(toServer);
      void serve(server, { transport: "stdio", stdin: toServer, stdout: toClient });
      return connect(createStreamTransport({ readable: toClient, writable: toServer }), options);
    }
    if (spec.via === "http-token")
      return connect(protectedHttp.url, { ...options, bearerToken: tokenOf(spec) });
    return connect(plainHttp.url, options);
  }

  it("no client receives another's data, notification, progress, answer or task", async () => {
    const seen: Seen[] = specs.map((spec) => ({ spec, inbound: [], violations: [] }));
    const clients = await Promise.all(specs.map((spec, i) => open(spec, seen[i]!)));
    try {
      const subscribed = barrier(N);
      const taskIds = new Map<Spec, string>();
      const tasksStarted = barrier(N / 2);
      const updatesSent = subscribed.all.then(() => {
        for (const spec of specs) server.notifyResourceUpdated(uriOf(spec));
      });
      await Promise.all(
        specs.map(async (spec, i) => {
          const client = clients[i]!;
          const mine = seen[i]!;
          const wrong = (what: string, value: unknown) => mine.violations.push(`${what}: ${String(value)}`);
          await client.setLogLevel("info");

          const who = JSON.parse((await client.callTool("whoami")).content) as Record<string, unknown>;
          if (who.client !== spec.name) wrong("client name", who.client);
          if (who.subject !== (spec.subject ?? null)) wrong("subject", who.subject);

          const subscription = client.subscribe({ resourceSubscriptions: [uriOf(spec)] });
          await subscription.acknowledged;
          const update = (async () => {
            await subscribed();
            for await (const n of subscription) {
              const uri = n.params.uri;
              if (uri !== uriOf(spec)) wrong("resource update", uri);
              return;
            }
          })();
          await updatesSent;
          await update;
          await subscription.close();

          const steps: number[] = [];
          const worked = await client.callTool(
            "work",
            { secret: spec.secret },
            {
              onProgress: (p: { progress: number; message?: string }) => {
                if (p.message !== `progress ${spec.secret}`) wrong("progress", p.message);
                steps.push(p.progress);
              },
            },
          );
          if (worked.content !== `worked ${spec.secret}`) wrong("work result", worked.content);
          if (steps.join(",") !== "1,2,3") wrong("progress steps", steps.join(","));

          const asked = await client.callTool("ask", { secret: spec.secret });
          if (asked.content !== `asked ${spec.secret} answered ${spec.secret}`)
            wrong("answer", asked.content);

          if (spec.era === "modern") {
            const handle = await client.startTool("job", { secret: spec.secret });
            if (handle.taskId === undefined) wrong("task", "none made");
            else taskIds.set(spec, handle.taskId);
            await tasksStarted();
            const result = await handle.result();
            if (result.content !== `job ${spec.secret}`) wrong("task result", result.content);
          }
        }),
      );

      // The wire scan: nothing of another client's reached this one.
      for (const mine of seen) {
        const text = mine.inbound.join("\n");
        expect(text).toContain(mine.spec.secret);
        for (const other of seen) {
          if (other === mine) continue;
          if (text.includes(other.spec.secret)) mine.violations.push(`saw ${other.spec.secret} on the wire`);
          if (other.spec.subject && text.includes(other.spec.subject))
            mine.violations.push(`saw ${other.spec.subject} on the wire`);
          const task = taskIds.get(other.spec);
          if (task && text.includes(task)) mine.violations.push(`saw task ${task} of ${other.spec.name}`);
        }
      }
      expect(seen.flatMap((s) => s.violations.map((v) => `${s.spec.name}: ${v}`))).toEqual([]);

      // A task is its owner's: another subject cannot read it, even knowing its id (its refusal echoes
      // only the id the asker sent, so this comes after the scan).
      const tokenModern = specs.filter((s) => s.via === "http-token" && s.era === "modern");
      for (const [k, spec] of tokenModern.entries()) {
        const other = tokenModern[(k + 1) % tokenModern.length]!;
        const theirs = taskIds.get(other);
        expect(theirs).toBeDefined();
        const refused = await clients[specs.indexOf(spec)]!.getTask(theirs!).then(
          () => undefined,
          (error: Error) => error,
        );
        expect(refused).toBeInstanceOf(Error);
        expect(refused!.message).not.toContain(other.secret);
        expect((await clients[specs.indexOf(other)]!.getTask(theirs!)).taskId).toBe(theirs);
      }
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  }, 60_000);
});
