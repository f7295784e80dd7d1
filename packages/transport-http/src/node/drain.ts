import type { IncomingMessage } from "node:http";

/** How much of an over-cap upload is read and dropped, at most, so its 413 reaches the client. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
/** The longest pause in an over-cap upload the drain waits through before closing the connection. */
export const DRAIN_IDLE_MS = 1_000;

/**
 * Reads and drops the rest of a request body, so the socket can stay open (or close cleanly) until the
 * client has sent everything: closing it while bytes are still arriving makes the kernel reset the
 * connection, and a reset can cost the client the answer it was already sent (`fetch failed` instead of
 * 413). Resolves true when the body ended within `maxBytes` without a pause longer than `idleMs`; false
 * when either bound was passed (the request is then paused: the caller answers and destroys it) or the
 * client left.
 */
export function drainNodeBody(
  req: IncomingMessage,
  maxBytes = DRAIN_MAX_BYTES,
  idleMs = DRAIN_IDLE_MS,
): Promise<boolean> {
  if (req.complete) return Promise.resolve(true);
  if (req.destroyed) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    let total = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (ended: boolean) => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      req.off("error", onClose);
      if (!ended) req.pause();
      resolve(ended);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => settle(false), idleMs);
      timer.unref?.();
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) settle(false);
      else arm();
    };
    const onEnd = () => settle(true);
    const onClose = () => settle(req.complete);
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("close", onClose);
    req.once("error", onClose);
    arm();
    req.resume();
  });
}
