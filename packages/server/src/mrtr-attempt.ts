import { isObject, JsonRpcError } from "@mcpkit/jsonrpc";
import { type InputRequest, McpError, McpErrorCode } from "@mcpkit/protocol";
import { type Context, InputRequiredSignal } from "./internal/context.js";
import type { RequestStateSealer } from "./internal/request-state.js";

type Params = Record<string, unknown>;

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  v !== null &&
  (typeof v === "object" || typeof v === "function") &&
  typeof (v as PromiseLike<unknown>).then === "function";

// The answers of a first attempt without inputResponses: only ever read, so one object serves them all.
const NO_ANSWERS: Record<string, unknown> = Object.freeze({});

/**
 * One attempt at a modern (2026-07-28) call that may ask the client for input: `tools/call`,
 * `prompts/get` or `resources/read`. It owns the call's identity (method, target, arguments), the
 * answers this attempt may use (from `requestState`, then `inputResponses`), the inputs the handler asked
 * for, and the sealer that binds the next `requestState` to that identity. A legacy session has none:
 * there an input is a real server-to-client request.
 * @see SPEC.md §3.5 (multi round-trip requests)
 */
export class MrtrAttempt {
  /** Answers the handler used, sealed into the next `requestState`. */
  readonly consumed: Record<string, unknown> = {};
  /** Input requests the handler made that have no answer yet. */
  readonly pending: Record<string, InputRequest> = {};
  /** How many inputs of each kind the handler asked for without a key (made on first use). */
  counters: Map<string, number> | undefined = undefined;

  private constructor(
    private readonly sealer: RequestStateSealer,
    /** The method of the call (`tools/call`, `prompts/get`, `resources/read`). */
    readonly method: string,
    /** The tool or prompt name, or the resource URI. */
    readonly target: string,
    /** The arguments; a `requestState` opens only for the same ones. */
    readonly args: unknown,
    /** Answers available to this attempt: from `requestState`, then `inputResponses`. */
    readonly answers: Record<string, unknown>,
    /** The values `ctx.state.set` stored in an earlier attempt. */
    readonly values: Record<string, unknown> | undefined,
    /** The caller's principal (`ownerOf` its auth info); a `requestState` opens only for the same one. */
    readonly principal: string | undefined,
  ) {}

  /**
   * Opens the attempt of a request from its `inputResponses` and `requestState`. Synchronous unless there
   * is a `requestState` to open (the common first attempt allocates no promise).
   * @throws McpError -32602 for `inputResponses` that is not an object, or a `requestState` that is
   * forged, expired, sealed by a key not in the ring, or was issued for another method, target, arguments
   * or principal (the reason is not told).
   */
  static open(
    sealer: RequestStateSealer,
    method: string,
    target: string,
    args: unknown,
    p: Params,
    principal?: string,
  ): MrtrAttempt | Promise<MrtrAttempt> {
    const responses = p.inputResponses;
    if (responses !== undefined && !isObject(responses)) {
      throw McpError.invalidParams("inputResponses must be an object keyed by input request");
    }
    if (p.requestState === undefined) {
      return new MrtrAttempt(sealer, method, target, args, responses ?? NO_ANSWERS, undefined, principal);
    }
    return sealer.open(p.requestState, method, target, args, principal).then((opened) => {
      if (opened === undefined) throw McpError.invalidParams("Invalid requestState");
      const answers = { ...opened.answers, ...responses };
      return new MrtrAttempt(sealer, method, target, args, answers, opened.values, principal);
    });
  }

  /** Whether the handler asked for an input this attempt has no answer to. */
  get asked(): boolean {
    for (const _ in this.pending) return true;
    return false;
  }

  /**
   * The `input_required` result that ends this attempt: the pending input requests and a sealed
   * `requestState` carrying the answers used so far and the handler's state values.
   */
  async inputRequired(ctx: Context): Promise<Params> {
    return {
      resultType: "input_required",
      inputRequests: this.pending,
      requestState: await this.sealer.seal(
        this.method,
        this.target,
        this.args,
        { answers: this.consumed, values: ctx.stateValues() },
        this.principal,
      ),
    };
  }
}

/**
 * Runs one handler attempt and sorts out how it ended: a protocol error (rethrown as is), an input
 * request of a modern attempt (its `input_required` result), an abort (rejects with the abort reason:
 * nobody is left to answer), or else `onResult(value)` / `onError(error)`. A handler that answers
 * synchronously costs no extra turn of the microtask queue.
 */
export async function runAttempt(
  ctx: Context,
  run: () => unknown,
  onResult: (value: unknown) => Promise<Params> | Params,
  onError: (error: unknown) => Params,
): Promise<Params> {
  let value: unknown;
  let error: unknown;
  let failed = false;
  try {
    const returned = run();
    value = isThenable(returned) ? await returned : returned;
  } catch (e) {
    error = e;
    failed = true;
  }
  if (failed && error instanceof JsonRpcError) throw error;
  const attempt = ctx.attempt;
  if (attempt?.asked) return attempt.inputRequired(ctx);
  const rctx = ctx.call.rctx;
  if (rctx.aborted) throw rctx.signal.reason;
  if (failed) {
    if (error instanceof InputRequiredSignal) {
      // Only a legacy-era misuse can get here (a signal with nothing pending).
      throw new McpError(McpErrorCode.InternalError, "Internal error");
    }
    return onError(error);
  }
  return onResult(value);
}
