import { readBoundedText, readEventStream } from "../body-reader.js";
import type { SseEvent } from "../sse-parser.js";
import type { HttpClientState, RequestMessage } from "./http-client-state.js";
import { cutStream } from "./response-cap.js";
import { cursorParser, type SseCursor, settleCursor } from "./sse-read.js";

/**
 * Delivers one parsed reply value to the sink; true when it is the response to `request`. The version an
 * `initialize` result chose becomes the transport's (the legacy session's version).
 */
export function deliverReply(
  state: HttpClientState,
  value: unknown,
  request: RequestMessage | undefined,
): boolean {
  let answered = false;
  if (request && value !== null && typeof value === "object" && !Array.isArray(value)) {
    const v = value as { id?: unknown; method?: unknown; result?: { protocolVersion?: unknown } };
    if (v.method === undefined && v.id === request.id) {
      answered = true;
      if (request.method === "initialize" && typeof v.result?.protocolVersion === "string") {
        state.protocolVersion = v.result.protocolVersion;
      }
    }
  } else if (request && Array.isArray(value)) {
    answered = value.some((v) => v && typeof v === "object" && !("method" in v) && v.id === request.id);
  }
  state.deliver(value);
  return answered;
}

/**
 * Reads an SSE reply (or the legacy GET stream: no `request`), keeping `cursor` (last event id, retry)
 * up to date; resolves true once the response to `request` was delivered.
 * @throws ResponseTooLargeError for an event past the cap; what the read threw otherwise.
 */
export async function readSseReply(
  state: HttpClientState,
  response: Response,
  cursor: SseCursor,
  request: RequestMessage | undefined,
  signal: AbortSignal,
): Promise<boolean> {
  let answered = false;
  const onEvent = (event: SseEvent) => {
    if (event.type !== "message" || event.data === "") return;
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch (error) {
      if (!state.closed) state.sink?.onInvalid(error as Error);
      return;
    }
    if (deliverReply(state, value, request)) answered = true;
  };
  const parser = cursorParser(cursor, onEvent, state.maxResponseBytes);
  try {
    await readEventStream(response, parser, signal, state.bodyReader);
  } catch (error) {
    throw cutStream(error, state.url);
  } finally {
    settleCursor(cursor, parser);
  }
  return answered;
}

/** Reads a JSON reply (bounded by the cap) and delivers it; a body that is not JSON goes to `onInvalid`. */
export async function readJsonReply(
  state: HttpClientState,
  response: Response,
  request: RequestMessage,
): Promise<void> {
  const text = await readBoundedText(response, state.maxResponseBytes, state.bodyReader, state.url);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    state.sink?.onInvalid(error as Error);
    return;
  }
  deliverReply(state, value, request);
}
