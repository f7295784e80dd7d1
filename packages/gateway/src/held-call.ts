import type { InputContext } from "@mcpkit/client";
import type { LoggingMessageNotificationParams } from "@mcpkit/protocol";

/** What an upstream asked of the client during a call: `elicitation`, `sampling` or `roots`, with its params. */
export interface UpstreamInput {
  readonly kind: "elicitation" | "sampling" | "roots";
  readonly params: Record<string, unknown>;
  /** The key a 2026-07-28 upstream gave the request (none from a legacy one). */
  readonly key: string | undefined;
  /** Settles the upstream's request (its answer, or an error it receives). */
  resolve(answer: unknown): void;
  reject(error: Error): void;
}

/** An upstream input request asked of the downstream client under `key`, in round order `round`. */
export interface PendingInput {
  readonly input: UpstreamInput;
  readonly key: string;
  readonly round: number;
}

/** The next thing a held call has for its downstream caller: the upstream's result, or an input request. */
export type HeldEvent =
  | { readonly kind: "result"; readonly result: unknown }
  | { readonly kind: "failed"; readonly error: unknown }
  | { readonly kind: "input"; readonly input: UpstreamInput };

/**
 * One forwarded call to an upstream, alive across the downstream's MRTR rounds: a 2026-07-28 client's
 * retry finds it by the id sealed in `requestState` and answers the input the upstream is still
 * waiting on, so the upstream tool runs once (never re-run per round, since tools need not be idempotent).
 *
 * It owns the upstream call's abort controller: a downstream attempt's signal is linked only while that
 * attempt waits (an attempt that ends with `input_required` must not cancel the upstream call), and the
 * call is aborted when no retry comes within the hold time.
 */
export class HeldCall {
  /** The upstream's call settles this; the downstream's handler waits on {@link next}. */
  private readonly events: HeldEvent[] = [];
  private waiter: ((event: HeldEvent) => void) | undefined;
  private holdTimer: ReturnType<typeof setTimeout> | undefined;
  /** Aborts the upstream call. */
  readonly controller = new AbortController();
  /** The input the upstream waits on while the downstream client is asked (between rounds). */
  pending: PendingInput[] | undefined;
  /** The downstream keys used so far (a key the upstream uses twice gets its round number added). */
  readonly usedKeys = new Set<string>();
  /** The number of input rounds so far (names each round's key). */
  rounds = 0;
  /** Receives the upstream's log lines (`notifications/message`) for the attempt that waits now. */
  onLog: ((params: LoggingMessageNotificationParams) => void) | undefined;
  /** Receives the upstream's progress for the attempt that waits now. */
  onProgress: ((progress: number, total?: number, message?: string) => void) | undefined;

  constructor(
    /** Random; the retry's `requestState` carries it. */
    readonly id: string,
    /** The upstream's name (errors and routing). */
    readonly upstream: string,
    /** The identity whose call it is: a retry by anyone else does not find it. */
    readonly owner: string,
  ) {}

  /** Hands the call's next event to the waiting attempt (or keeps it for the next one). */
  push(event: HeldEvent): void {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter(event);
    } else this.events.push(event);
  }

  /** An upstream input request of this call, from the upstream client's input handlers. */
  ask(kind: UpstreamInput["kind"], params: Record<string, unknown>, context: InputContext): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(context.signal.reason);
      context.signal.addEventListener("abort", onAbort, { once: true });
      this.push({
        kind: "input",
        input: {
          kind,
          params,
          key: context.key,
          resolve: (answer) => {
            context.signal.removeEventListener("abort", onAbort);
            resolve(answer);
          },
          reject: (error) => {
            context.signal.removeEventListener("abort", onAbort);
            reject(error);
          },
        },
      });
    });
  }

  /** Takes the input requests queued now (leaving a result or failure queued). */
  drainInputs(): UpstreamInput[] {
    const inputs: UpstreamInput[] = [];
    for (let i = 0; i < this.events.length; ) {
      const event = this.events[i] as HeldEvent;
      if (event.kind === "input") {
        inputs.push(event.input);
        this.events.splice(i, 1);
      } else i++;
    }
    return inputs;
  }

  /**
   * The next event, for an attempt whose signal aborts the upstream call while it waits here.
   * @throws the signal's reason when the attempt is cancelled.
   */
  next(signal: AbortSignal): Promise<HeldEvent> {
    const queued = this.events.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiter = undefined;
        this.controller.abort(signal.reason);
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiter = (event) => {
        signal.removeEventListener("abort", onAbort);
        resolve(event);
      };
    });
  }

  /** Keeps the call for a retry, for at most `ms`; then the upstream call is aborted and `onExpire` runs. */
  hold(ms: number, onExpire: () => void): void {
    this.release();
    this.holdTimer = setTimeout(() => {
      for (const p of this.pending ?? []) p.input.reject(new Error("the client did not answer in time"));
      this.controller.abort(new Error(`the client did not answer the input request within ${ms} ms`));
      onExpire();
    }, ms);
    this.holdTimer.unref?.();
  }

  /** Stops the hold timer (a retry arrived, or the call ended). */
  release(): void {
    if (this.holdTimer !== undefined) clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
  }
}
