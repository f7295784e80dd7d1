import { type JsonRpcErrorObject, TransportError } from "@mcpkit/jsonrpc";
import { readBoundedText } from "../body-reader.js";
import type { HttpClientState } from "./http-client-state.js";
import { LightSignal } from "./light-signal.js";
import { networkError } from "./network-error.js";
import { fetchOnOrigin } from "./redirects.js";

const MAX_ERROR_BODY = 64 * 1024;

/**
 * One HTTP exchange of the client transport, with exactly the `headers` given (the transport's parts
 * built them; nothing is added here); a failed fetch becomes the error that names its cause. Auth and
 * its retries are the fetch's; redirects stay on the endpoint's origin.
 */
export async function fetchExchange(
  state: HttpClientState,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal,
): Promise<Response> {
  const init: RequestInit = { method, headers, signal, redirect: "manual" };
  if (body !== undefined) init.body = body;
  try {
    return await fetchOnOrigin(state.fetch, state.url, init, state.bodyReader);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    // createNodeFetch cuts a body past its own cap, and a redirect off the origin is refused: both say so.
    if (error instanceof TransportError) throw error;
    throw networkError(method, state.url, error);
  }
}

/** The signal of one exchange: follows the caller's and the transport's lifetime; `release()` it after. */
export interface ExchangeSignal {
  readonly signal: AbortSignal;
  release(): void;
}

/**
 * Links one exchange's signal to `outer` (a request's own abort) and to the transport's close: a light
 * signal for createNodeFetch (no AbortController per request), else an AbortController.
 */
export function linkExchangeSignal(state: HttpClientState, outer: AbortSignal | undefined): ExchangeSignal {
  const lifetime = state.lifetime.signal;
  const inflight = state.inflight;
  if (state.lightSignals) {
    // The light signal is its own link: it follows `outer` with itself as the listener (no closures).
    const light = new LightSignal();
    if (lifetime.aborted) light.abort(lifetime.reason);
    else inflight.add(light);
    if (outer) light.follow(outer);
    return {
      signal: light as unknown as AbortSignal,
      release: () => {
        inflight.delete(light);
        light.unfollow();
      },
    };
  }
  const controller = new AbortController();
  const onOuter = () => controller.abort(outer!.reason);
  if (lifetime.aborted) controller.abort(lifetime.reason);
  else inflight.add(controller);
  if (outer) {
    if (outer.aborted) onOuter();
    else outer.addEventListener("abort", onOuter, { once: true });
  }
  return {
    signal: controller.signal,
    release: () => {
      inflight.delete(controller);
      outer?.removeEventListener("abort", onOuter);
    },
  };
}

/** A JSON-RPC error response in an HTTP error body, if that is what the body is. */
export function readErrorObject(text: string): { id: unknown; error: JsonRpcErrorObject } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const v = value as { jsonrpc?: unknown; error?: unknown; id?: unknown };
  const error = v.error as Partial<JsonRpcErrorObject> | undefined;
  if (v.jsonrpc !== "2.0" || error === null || typeof error !== "object") return undefined;
  if (typeof error.code !== "number" || !Number.isInteger(error.code) || typeof error.message !== "string") {
    return undefined;
  }
  return { id: v.id, error: error as JsonRpcErrorObject };
}

/** An error body, of which at most 64 KiB is kept (and no more than the cap is read). */
export async function errorText(state: HttpClientState, response: Response): Promise<string> {
  try {
    const text = await readBoundedText(response, state.maxResponseBytes, state.bodyReader);
    return text.length > MAX_ERROR_BODY ? text.slice(0, MAX_ERROR_BODY) : text;
  } catch {
    return "";
  }
}
