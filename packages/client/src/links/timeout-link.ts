import type { RequestOptions } from "@mcpkit/jsonrpc";
import type { CallOptions } from "../options.js";
import { currentRequestConfig, type RequestConfig, resolveRequestConfig } from "../request-config.js";
import type { Link } from "./link.js";

/**
 * The timeouts link: the peer's timing of each request (timeout, reset on progress, total bound, the
 * call's signal and progress callback), call > ambient `withRequestConfig` > `createClient` options >
 * defaults. The timing of a call that sets nothing, outside any scope, is made once and shared.
 * @throws RangeError (the request is not sent) on a timeout that is NaN, 0 or negative.
 */
export function timeoutLink(session: RequestConfig): Link {
  let plain: RequestOptions | undefined;
  return (op, next) => {
    const call = op.options;
    if (call === undefined && currentRequestConfig() === undefined) {
      plain ??= peerTiming(undefined, session);
      op.timing = plain;
    } else {
      op.timing = peerTiming(call, session);
    }
    return next(op);
  };
}

/** The peer options of one call's timing. */
export function peerTiming(call: CallOptions | undefined, session: RequestConfig): RequestOptions {
  const config = resolveRequestConfig(call, session);
  const options: RequestOptions = {
    timeout: config.timeout,
    resetTimeoutOnProgress: config.resetTimeoutOnProgress,
  };
  if (config.maxTotalTimeout !== undefined) options.maxTotalTimeout = config.maxTotalTimeout;
  if (call?.signal) options.signal = call.signal;
  if (call?.onProgress) options.onProgress = call.onProgress;
  return options;
}
