import { randomUUID } from "node:crypto";
import { ConnectionClosedError, TimeoutError } from "@mcpkit/jsonrpc";
import { type CallToolResult, type JsonValue, McpError } from "@mcpkit/protocol";
import { type HandlerContext, isInputRequired } from "@mcpkit/server";
import { McpCrashError } from "@mcpkit/transport-stdio";
import { HeldCall, type UpstreamInput } from "./held-call.js";
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
      const { input, key, round } = found.pending;
      found.pending = undefined;
      await answer(ctx, input, key, round);
    }
    // Not held here (another instance behind the load balancer, a restart, an expired hold): the call is
    // made again and the upstream's questions answered from the answers sealed in requestState, in order.
  }
  if (call === undefined) {
    const fresh = new HeldCall(randomUUID(), upstream.name, owner);
    call = fresh;
    held.add(fresh);
    upstream.callTool(fresh, toolName, args).then(
      (result) => fresh.push({ kind: "result", result }),
      (error: unknown) => fresh.push({ kind: "failed", error }),
    );
  }
  const current = call;
  current.onProgress = (progress, total, message) =>
    void ctx.progress(progress, total, message).catch(() => {});
  try {
    for (;;) {
      const event = await current.next(ctx.signal);
      if (event.kind === "result") return event.result;
      if (event.kind === "failed") return failure(upstream, toolName, event.error, current.controller.signal);
      const round = current.rounds++;
      // The upstream's own key when it gave one (a 2026-07-28 upstream), so the client sees the same names.
      let key = event.input.key ?? `gateway-${round}`;
      if (current.usedKeys.has(key)) key = `${key}-${round}`;
      current.usedKeys.add(key);
      ctx.state.set(HELD_KEY, current.id);
      ctx.state.set(OWNER_KEY, owner);
      current.pending = { input: event.input, key, round };
      await answer(ctx, event.input, key, round);
      current.pending = undefined;
    }
  } catch (error) {
    if (isInputRequired(error)) {
      current.onProgress = undefined;
      current.hold(held.holdMs, () => held.delete(current));
    }
    throw error;
  } finally {
    if (current.pending === undefined) held.delete(current);
  }
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
  ctx.state.set(ANSWERS_KEY, Object.assign({}, answers, { [slot]: reply as JsonValue }));
  input.resolve(reply);
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
