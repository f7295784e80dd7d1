// One soak client: a loop of the realistic mix until told to stop. Every call is timed; an error is
// expected only where the step asked for it (a cancellation, a per-call timeout), anything else counts
// as unexpected with its message kept. HTTP clients sometimes abandon their session (no DELETE: the
// client's sockets just go, as when a process dies) or close it properly and reconnect.
import { createClient } from "@mcpkit/client";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { createNodeFetch } from "@mcpkit/transport-http/node";
import { createStreamTransport } from "@mcpkit/transport-stdio";
import { spawnStdioServer } from "./procs.mjs";

/** The tally of one side (mcpkit or SDK v1), and the keep-alive fetch its HTTP clients share. */
export function createTally() {
  return {
    fetch: createNodeFetch({ maxSockets: 256 }),
    calls: 0,
    expected: 0,
    unexpected: 0,
    errors: [],
    latencies: [],
    abandoned: 0,
    reconnects: 0,
    children: [],
  };
}

// The steps, weighted: what a busy agent host does with a server.
const STEPS = [
  ["echo", 28],
  ["work", 14],
  ["cancel", 8],
  ["timeout", 5],
  ["list", 14],
  ["subscribe", 5],
  ["ask", 12],
  ["whoami", 10],
  ["reconnect", 2],
  ["abandon", 2],
];
const TOTAL = STEPS.reduce((n, [, w]) => n + w, 0);

function pick() {
  let r = Math.random() * TOTAL;
  for (const [name, w] of STEPS) if ((r -= w) < 0) return name;
  return "echo";
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A fetch that a client can drop like a dead process: in-flight requests abort, later ones fail. */
function droppableFetch(inner) {
  const controller = new AbortController();
  const f = (input, init = {}) => {
    if (controller.signal.aborted) return Promise.reject(new TypeError("fetch failed: the client is gone"));
    const signal = init.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    return inner(input, { ...init, signal });
  };
  f.drop = () => controller.abort(new Error("abandoned"));
  return f;
}

/**
 * Connects one client: HTTP (`era` legacy or modern; `auto` against the SDK v1, which has only the legacy
 * era) or stdio (a server child of its own, its stdout scanned).
 */
async function open(target, name, scan, tally) {
  const client = createClient({
    name,
    version: "0.0.0",
    capabilities: { elicitation: { form: {} } },
    handlers: {
      elicitation: async (params) => {
        const nonce = /nonce (\S+)\?/.exec(params.message)?.[1];
        return { action: "accept", content: { nonce } };
      },
    },
    // A call that never ends is an error worth seeing, not a soak that never ends.
    requestTimeout: 15_000,
    ...(target.era ? { versionNegotiation: target.era } : {}),
  });
  if (target.kind === "stdio") {
    const child = spawnStdioServer(target.impl);
    tally.children.push(child);
    // The last words of a child that dies before answering name the cause in the error.
    let stderr = "";
    child.stderr.on("data", (c) => {
      if (stderr.length < 2000) stderr += c;
    });
    const transport = createStreamTransport({ readable: scan.stream(child.stdout), writable: child.stdin });
    try {
      await client.connect(transport);
    } catch (error) {
      // A child that is still running (the handshake failed otherwise) gets a bounded while to exit.
      const exited = new Promise((r) =>
        child.exitCode === null && child.signalCode === null ? child.once("exit", r) : r(),
      );
      await Promise.race([exited, sleep(2_000)]);
      const exit = child.signalCode ?? child.exitCode;
      // The thrown error's own line (e.g. a module that would not load), not its stack.
      const cause = stderr.split("\n").find((l) => /Error\b/.test(l)) ?? stderr.trim().split("\n")[0];
      error.message = `${error.message} (stdio server exit ${exit}: ${cause?.slice(0, 200) || "no stderr"})`;
      throw error;
    }
    return { client, drop: undefined, child };
  }
  const f = droppableFetch(scan.fetch(tally.fetch));
  await client.connect(createStreamableHttpClientTransport({ url: target.url, fetch: f }));
  return { client, drop: f.drop };
}

async function timed(tally, fn) {
  const t0 = performance.now();
  const out = await fn();
  tally.latencies.push(performance.now() - t0);
  return out;
}

function unexpected(tally, step, error) {
  tally.unexpected++;
  if (tally.errors.length < 20)
    tally.errors.push(`${step}: ${error?.name ?? "?"}: ${String(error?.message ?? error).slice(0, 200)}`);
}

/** Runs one step; counts it. */
async function step(name, client, tally, id) {
  tally.calls++;
  try {
    switch (name) {
      case "echo": {
        const r = await timed(tally, () => client.callTool("echo", { text: `hi ${id}` }));
        if (r.content !== `hi ${id}`) throw new Error(`echo answered ${r.content.slice(0, 80)}`);
        return;
      }
      case "work": {
        let seen = 0;
        const r = await timed(tally, () =>
          client.callTool("work", { steps: 3, ms: 15 }, { onProgress: () => seen++ }),
        );
        if (r.isError || seen !== 3) throw new Error(`work: ${seen} progress, ${r.content.slice(0, 80)}`);
        return;
      }
      case "cancel": {
        const controller = new AbortController();
        const reason = new Error("soak cancel");
        setTimeout(() => controller.abort(reason), 60);
        try {
          await client.callTool("work", { steps: 20, ms: 30 }, { signal: controller.signal });
        } catch (error) {
          if (error === reason) {
            tally.expected++;
            return;
          }
          throw error;
        }
        // The call beat its cancellation (a busy machine fires the timer late): a plain completion.
        return;
      }
      case "timeout": {
        try {
          await client.callTool("slow", { ms: 1500 }, { timeout: 100, resetTimeoutOnProgress: false });
        } catch (error) {
          if (error?.name === "TimeoutError") {
            tally.expected++;
            return;
          }
          throw error;
        }
        throw new Error("a call outlived its timeout");
      }
      case "list": {
        const tools = await timed(tally, () => client.listTools({ refresh: true }));
        if (tools.length !== 5) throw new Error(`list: ${tools.length} tools`);
        return;
      }
      case "subscribe": {
        const sub = client.subscribe({ toolsListChanged: true });
        await Promise.race([sub.acknowledged, sleep(2000)]);
        await sleep(100);
        sub.close();
        return;
      }
      case "ask": {
        const nonce = `${id}-${Math.random().toString(36).slice(2, 8)}`;
        const r = await timed(tally, () => client.callTool("ask", { nonce }));
        if (r.content !== nonce) throw new Error(`ask answered ${r.content.slice(0, 80)} for ${nonce}`);
        return;
      }
      case "whoami": {
        const r = await timed(tally, () => client.callTool("whoami", {}));
        if (JSON.parse(r.content).client !== `soak-${id}`)
          throw new Error(`whoami answered ${r.content.slice(0, 80)}`);
        return;
      }
    }
  } catch (error) {
    unexpected(tally, name, error);
  }
}

/**
 * Runs one client's loop until `stop.done`; returns once its last client closed (or was abandoned).
 * `target`: `{ kind: "http", url, era?, impl }` or `{ kind: "stdio", impl }`.
 */
export async function runClient(target, id, tally, scan, stop) {
  const name = `soak-${id}`;
  let conn;
  while (!stop.done) {
    if (!conn) {
      try {
        conn = await open(target, name, scan, tally);
      } catch (error) {
        unexpected(tally, "connect", error);
        await sleep(500);
        continue;
      }
    }
    const next = pick();
    if (next === "abandon" || next === "reconnect") {
      if (next === "abandon" && conn.drop) {
        // No DELETE: the server learns nothing; its idle expiry must clean up.
        conn.drop();
        tally.abandoned++;
        await conn.client.close().catch(() => {});
      } else {
        tally.reconnects++;
        await conn.client.close().catch((error) => unexpected(tally, "close", error));
      }
      conn = undefined;
      continue;
    }
    await step(next, conn.client, tally, id);
    // A little think time between steps, as an agent host has.
    await sleep(5 + Math.random() * 20);
  }
  if (conn) await conn.client.close().catch((error) => unexpected(tally, "close", error));
}
