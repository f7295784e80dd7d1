/** Why a call was refused by {@link IdentityLimits}. */
export type LimitRefusal = { limit: "callsPerMinute" | "concurrency"; value: number };

/**
 * Per-identity rate limits (a token bucket of `callsPerMinute`, refilled continuously, as big as one
 * minute's calls) and concurrency caps (calls in flight). In memory: each gateway instance counts its
 * own calls.
 */
export class IdentityLimits {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Takes a call slot for `identity`, or says which limit refuses it. On success, call the returned
   * function once the call ends.
   */
  acquire(
    identity: string,
    callsPerMinute: number | undefined,
    concurrency: number | undefined,
  ): (() => void) | LimitRefusal {
    const running = this.inFlight.get(identity) ?? 0;
    if (concurrency !== undefined && running >= concurrency)
      return { limit: "concurrency", value: concurrency };
    if (callsPerMinute !== undefined) {
      const now = this.now();
      const bucket = this.buckets.get(identity) ?? { tokens: callsPerMinute, at: now };
      bucket.tokens = Math.min(callsPerMinute, bucket.tokens + ((now - bucket.at) * callsPerMinute) / 60_000);
      bucket.at = now;
      this.buckets.set(identity, bucket);
      if (bucket.tokens < 1) return { limit: "callsPerMinute", value: callsPerMinute };
      bucket.tokens -= 1;
    }
    this.inFlight.set(identity, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(identity) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(identity);
      else this.inFlight.set(identity, left);
    };
  }
}
