import type { Lock } from "../internal/lock.js";
import type { Link } from "./link.js";

/**
 * The turn link (`serialize: true`): one exchange at a time, in call order; the turn is taken before the
 * envelope is computed and let go when the answer came. A `subscriptions/listen` stream never holds it.
 * @throws what the lock rejects with: `signal.reason` for a waiter aborted, the close error after close.
 */
export function turnLink(lock: Lock): Link {
  return async (op, next) => {
    if (op.method === "subscriptions/listen") return next(op);
    const release = await lock.acquire(op.options?.signal);
    try {
      return await next(op);
    } finally {
      release();
    }
  };
}
