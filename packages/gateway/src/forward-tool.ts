import { randomUUID } from "node:crypto";
import { ConnectionClosedError, TimeoutError } from "@mcpkit/jsonrpc";
import { type CallToolResult, McpError } from "@mcpkit/protocol";
import { type HandlerContext, isInputRequired } from "@mcpkit/server";
import { McpCrashError } from "@mcpkit/transport-stdio";
import { HeldCall, type UpstreamInput } from "./held-call.js";
import type { Upstream } from "./upstream.js";

const HELD_KEY = "gateway.held";

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
 * whose retry finds the same upstream call held here (by the id in `requestState`) and answers it.
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
  let call: HeldCall;
  const heldId = ctx.state.get(HELD_KEY);
  if (typeof heldId === "string") {
    const found = held.get(heldId, owner);
    if (!found?.pending) {
      throw new McpError(
        -32602,
        `the call to upstream "${upstream.name}" this answer belongs to is no longer held (it expired, or this gateway restarted): call the tool again`,
      );
    }
    call = found;
    call.release();
    const { input, key } = found.pending;
    found.pending = undefined;
    await answer(ctx, input, key);
  } else {
    call = new HeldCall(randomUUID(), upstream.name, owner);
    held.add(call);
    upstream.callTool(call, toolName, args).then(
      (result) => call.push({ kind: "result", result }),
      (error: unknown) => call.push({ kind: "failed", error }),
    );
  }
  call.onProgress = (progress, total, message) => void ctx.progress(progress, total, message).catch(() => {});
  try {
    for (;;) {
      const event = await call.next(ctx.signal);
      if (event.kind === "result") return event.result;
      if (event.kind === "failed") return failure(upstream, toolName, event.error, call.controller.signal);
      const key = `gateway-${call.rounds++}`;
      ctx.state.set(HELD_KEY, call.id);
      call.pending = { input: event.input, key };
      await answer(ctx, event.input, key);
      call.pending = undefined;
    }
  } catch (error) {
    if (isInputRequired(error)) {
      call.onProgress = undefined;
      call.hold(held.holdMs, () => held.delete(call));
      throw error;
    }
    throw error;
  } finally {
    if (call.pending === undefined) held.delete(call);
  }
}

/**
 * Asks the downstream client what the upstream asked and settles the upstream's request with the answer.
 * @throws the `input_required` signal of a 2026-07-28 attempt (the round ends here; the upstream waits).
 */
async function answer(ctx: HandlerContext, input: UpstreamInput, key: string): Promise<void> {
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
