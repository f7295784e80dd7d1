import { randomUUID } from "node:crypto";
import { ConnectionClosedError, TimeoutError } from "@mcpkit/jsonrpc";
import { type CallToolResult, type JsonValue, McpError } from "@mcpkit/protocol";
import { type HandlerContext, isInputRequired } from "@mcpkit/server";
import { McpCrashError } from "@mcpkit/transport-stdio";
import { HeldCall, type PendingInput, type UpstreamInput } from "./held-call.js";
import type { Upstream } from "./upstream.js";

const HELD_KEY = "gateway.held";
const OWNER_KEY = "gateway.owner";
const ANSWERS_KEY = "gateway.answers";

/** The calls waiting on a downstream client's answer, by id; shared by every profile's server. */
export class HeldCalls {
  private readonly calls = new Map<string, HeldCall>();

  constructor(
    /** How long a call waits for a retry (`gateway.inputTimeoutMs`). */
    readonly holdMs: number,
  ) {}

  get(id: string, owner: string): HeldCall | undefined {
    const call = this.calls.get(id);
    return call && call.owner === owner ? call : undefined;
  }

  add(call: HeldCall): void {
    this.calls.set(call.id, call);
  }

  delete(call: HeldCall): void {
    call.release();
    this.calls.delete(call.id);
  }

  /** Aborts every held call (the gateway is closing). */
  abortAll(reason: Error): void {
    for (const call of this.calls.values()) {
      call.release();
      call.controller.abort(reason);
    }
    this.calls.clear();
  }

  get size(): number {
    return this.calls.size;
  }
}

/**
 * Forwards one `tools/call` to its upstream in the downstream call's own era. What the upstream asks
 * meanwhile (elicitation, sampling, roots) is asked of the downstream client through `ctx`: a real
 * server-to-client request in a 2025-11-25 session, an `input_required` round in a 2026-07-28 request,
 * whose retry finds the same upstream call held here (by the id in `requestState`) and answers it. A
 * retry that reaches an instance not holding the call (several gateways behind a load balancer, a
 * restart) calls the upstream tool again and answers its questions from the answers sealed in
 * `requestState`: the tool then runs twice, so put gateways whose upstream tools are not idempotent
 * behind sticky routing.
 * Progress and cancellation pass through; a crash, a closed connection or a timeout becomes a tool error
 * naming the upstream; an upstream's JSON-RPC error is passed on as it is.
 */
export async function forwardToolCall(
  held: HeldCalls,
  upstream: Upstream,
  toolName: string,
  args: Record<string, unknown>,
  ctx: HandlerContext,
  owner: string,
): Promise<CallToolResult> {
  let signal: AbortSignal | undefined;
  try {
    return await forwardHeld(
      held,
      upstream,
      (call) => {
        signal = call.controller.signal;
        return upstream.callTool(call, toolName, args);
      },
      ctx,
      owner,
    );
  } catch (error) {
    if (isInputRequired(error) || signal === undefined) throw error;
    return failure(upstream, toolName, error, signal);
  }
}

/**
 * Forwards one request of any kind (`tools/call`, `prompts/get`, `resources/read`) as a held call: the
 * upstream's questions during it are asked of the downstream client through `ctx` (see
 * {@link forwardToolCall}); requests the upstream makes at once are asked in one round.
 * @throws what the upstream request threw, or the `input_required` signal that ends a round.
 */
export async function forwardHeld<T>(
  held: HeldCalls,
  upstream: Upstream,
  start: (call: HeldCall) => Promise<T>,
  ctx: HandlerContext,
  owner: string,
): Promise<T> {
  let call: HeldCall | undefined;
  const heldId = ctx.state.get(HELD_KEY);
  if (typeof heldId === "string") {
    if (ctx.state.get(OWNER_KEY) !== owner) {
      throw new McpError(-32602, "this requestState belongs to another caller's call");
    }
    const found = held.get(heldId, owner);
    if (found?.pending) {
      call = found;
      call.release();
      const pending = found.pending;
      found.pending = undefined;
      await answerAll(ctx, found, pending);
    }
    // Not held here (another instance behind the load balancer, a restart, an expired hold): the call is
    // made again and the upstream's questions answered from the answers sealed in requestState, in order.
  }
  if (call === undefined) {
    const fresh = new HeldCall(randomUUID(), upstream.name, owner);
    call = fresh;
    held.add(fresh);
    start(fresh).then(
      (result) => fresh.push({ kind: "result", result }),
      (error: unknown) => fresh.push({ kind: "failed", error }),
    );
  }
  const current = call;
  current.onProgress = (progress, total, message) =>
    void ctx.progress(progress, total, message).catch(() => {});
  current.onLog = (line) => void ctx.log(line.level, line.data, line.logger).catch(() => {});
  try {
    for (;;) {
      const event = await current.next(ctx.signal);
      if (event.kind === "result") return event.result as T;
      if (event.kind === "failed") throw event.error;
      // A legacy server's concurrent requests arrive one by one: those of one moment form one round.
      if (ctx.era === "modern") await new Promise((resolve) => setTimeout(resolve, BATCH_MS));
      const batch = [event.input, ...current.drainInputs()].map((input) => {
        const round = current.rounds++;
        // The upstream's own key when it gave one (a 2026-07-28 upstream), so the client sees its names.
        let key = input.key ?? `gateway-${round}`;
        if (current.usedKeys.has(key)) key = `${key}-${round}`;
        current.usedKeys.add(key);
        return { input, key, round };
      });
      ctx.state.set(HELD_KEY, current.id);
      ctx.state.set(OWNER_KEY, owner);
      await answerAll(ctx, current, batch);
    }
  } catch (error) {
    if (isInputRequired(error)) {
      current.onProgress = undefined;
      current.onLog = undefined;
      current.hold(held.holdMs, () => held.delete(current));
    }
    throw error;
  } finally {
    if (current.pending === undefined) held.delete(current);
  }
}

/** How long a round waits for more of a legacy upstream's concurrent requests, in ms. */
const BATCH_MS = 15;

/** Asks a batch at once (one `input_required` round); keeps it pending on the call until all are answered. */
async function answerAll(ctx: HandlerContext, call: HeldCall, batch: PendingInput[]): Promise<void> {
  call.pending = batch;
  await Promise.all(batch.map((b) => answer(ctx, b.input, b.key, b.round)));
  call.pending = undefined;
}

/**
 * Asks the downstream client what the upstream asked and settles the upstream's request with the answer.
 * @throws the `input_required` signal of a 2026-07-28 attempt (the round ends here; the upstream waits).
 */
async function answer(ctx: HandlerContext, input: UpstreamInput, key: string, round: number): Promise<void> {
  const given = ctx.state.get(ANSWERS_KEY);
  const answers = (
    typeof given === "object" && given !== null && !Array.isArray(given) ? given : {}
  ) as Record<string, JsonValue>;
  // By round, not by key: a replay on another instance asks the same questions in the same order.
  const slot = String(round);
  if (Object.hasOwn(answers, slot)) {
    input.resolve(answers[slot]);
    return;
  }
  let reply: unknown;
  try {
    if (input.kind === "elicitation") reply = await ctx.elicit(input.params as never, { key });
    else if (input.kind === "sampling") reply = await ctx.sample(input.params as never, { key });
    else reply = await ctx.listRoots({ key });
  } catch (error) {
    if (isInputRequired(error)) throw error;
    // The downstream client could not answer (no such capability, it refused): the upstream hears so.
    input.reject(error instanceof Error ? error : new Error(String(error)));
    return;
  }
  // Kept in requestState, so a retry that reaches another instance can replay the call.
  ctx.state.set(ANSWERS_KEY, Object.assign({}, sealedAnswers(ctx), { [slot]: reply as JsonValue }));
  input.resolve(reply);
}

function sealedAnswers(ctx: HandlerContext): Record<string, JsonValue> {
  const given = ctx.state.get(ANSWERS_KEY);
  return (typeof given === "object" && given !== null && !Array.isArray(given) ? given : {}) as Record<
    string,
    JsonValue
  >;
}

function failure(upstream: Upstream, tool: string, error: unknown, signal: AbortSignal): CallToolResult {
  // A cancel is not a failure to report: the caller's abort reason goes back as it is.
  if (error instanceof McpError || (signal.aborted && error === signal.reason)) throw error;
  const where = `upstream "${upstream.name}"`;
  let text: string;
  if (error instanceof McpCrashError) {
    const tail = error.stderrTail.slice(-3).join(" | ");
    text = `${where} crashed during ${tool}${tail ? ` (last stderr: ${tail})` : ""}; it is restarted on the next call`;
  } else if (error instanceof TimeoutError) {
    text = `${where} did not answer ${tool} within ${upstream.settings.timeoutMs} ms`;
  } else if (error instanceof ConnectionClosedError) {
    text = `${where} closed the connection during ${tool}; it is reconnected on the next call`;
  } else {
    text = `${where} failed ${tool}: ${error instanceof Error ? error.message : String(error)}`;
  }
  return { content: [{ type: "text", text }], isError: true };
}
