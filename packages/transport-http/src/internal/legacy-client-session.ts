import { ConnectionClosedError, sleep, TransportError } from "@mcpkit/jsonrpc";
import { Header } from "@mcpkit/protocol";
import { discardBody } from "../body-reader.js";
import { HttpError, ResponseTooLargeError, SessionExpiredError } from "../errors.js";
import { fetchExchange } from "./http-client-fetch.js";
import { readSseReply } from "./http-client-reply.js";
import type { HttpClientState, RequestMessage } from "./http-client-state.js";
import { fetchOnOrigin } from "./redirects.js";
import type { SseCursor } from "./sse-read.js";

/**
 * The legacy era's session on the client side (2025-03-26 … 2025-11-25): the `Mcp-Session-Id` the
 * initialize response issued and the version it chose, sent with every later request of the session; the
 * standalone GET stream; resumption of a broken POST stream by GET with `Last-Event-ID`; the 404 that
 * says the session expired; the DELETE that ends it. Session state, kept here: nothing of it is computed
 * from a message's content.
 * @see SPEC.md §4.8
 */
export class LegacyClientSession {
  sessionId: string | undefined;
  readonly #state: HttpClientState;
  #standalone: AbortController | undefined = undefined;

  constructor(state: HttpClientState) {
    this.#state = state;
    this.sessionId = state.options.sessionId;
  }

  /** The session's headers on a POST: its id, and its version (an `initialize` carries neither version). */
  addPostHeaders(headers: Record<string, string>, method: string | undefined): void {
    const { protocolVersion } = this.#state;
    if (this.sessionId !== undefined) headers[Header.SessionId] = this.sessionId;
    if (protocolVersion !== undefined && method !== "initialize")
      headers[Header.ProtocolVersion] = protocolVersion;
  }

  /** Keeps the session id an initialize response issued. */
  capture(response: Response): void {
    const issued = response.headers.get(Header.SessionId);
    if (issued) this.sessionId = issued;
  }

  /** The server forgot the session: forget it too, stop the GET stream, tell the app. */
  expire(): SessionExpiredError {
    const error = new SessionExpiredError(this.sessionId ?? "");
    this.sessionId = undefined;
    this.#standalone?.abort(error);
    this.#standalone = undefined;
    this.#state.options.onSessionExpired?.(error);
    return error;
  }

  /** Resumes a POST stream that ended before its response, by GET with `Last-Event-ID`. */
  async resume(cursor: SseCursor, request: RequestMessage, signal: AbortSignal): Promise<void> {
    const state = this.#state;
    for (let failures = 0; ; ) {
      if (cursor.lastEventId === "" || state.era !== "legacy") {
        throw new TransportError(
          `The response stream of request ${String(request.id)} ended before its response`,
        );
      }
      if (failures > state.reconnect.maxRetries) {
        throw new TransportError(`Could not resume the response stream of request ${String(request.id)}`);
      }
      await sleep(state.backoff(failures, cursor), signal);
      const hadSession = this.sessionId !== undefined;
      let response: Response;
      try {
        response = await this.#openGet(cursor.lastEventId, signal);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        failures++;
        state.onError(error as Error);
        continue;
      }
      if (response.status === 404 && hadSession) {
        discardBody(response, state.bodyReader);
        throw this.expire();
      }
      if (!response.ok || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
        discardBody(response, state.bodyReader);
        if (response.status === 405)
          throw new TransportError("The server does not support stream resumption (405)");
        failures++;
        continue;
      }
      const before = cursor.lastEventId;
      try {
        if (await readSseReply(state, response, cursor, request, signal)) return;
      } catch (error) {
        // A broken resumed stream is one more attempt, unless the request was given up or it was cut.
        if (signal.aborted) throw signal.reason;
        if (error instanceof ResponseTooLargeError) throw error;
      }
      // Progress (a new event id) resets the count: only streams that end with nothing new use up retries.
      failures = cursor.lastEventId === before ? failures + 1 : 0;
    }
  }

  /** Opens the standalone GET stream (after `notifications/initialized`, or when joining a session). */
  openStandalone(): void {
    const state = this.#state;
    if (state.options.openStandaloneStream === false || state.era !== "legacy" || state.closed) return;
    if (this.sessionId === undefined) return;
    if (this.#standalone && !this.#standalone.signal.aborted) return;
    const controller = new AbortController();
    this.#standalone = controller;
    const lifetime = state.lifetime.signal;
    const stop = () => controller.abort(lifetime.reason);
    lifetime.addEventListener("abort", stop, { once: true });
    this.#runStandalone(controller)
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          state.onError(error instanceof Error ? error : new Error(String(error)));
      })
      .finally(() => {
        lifetime.removeEventListener("abort", stop);
        if (this.#standalone === controller) this.#standalone = undefined;
      });
  }

  /** DELETEs the session (bounded by `closeTimeout`) and forgets it; failures go to `onError`. */
  async terminate(): Promise<void> {
    const state = this.#state;
    const id = this.sessionId;
    if (id === undefined || state.era !== "legacy") return;
    this.sessionId = undefined;
    this.#standalone?.abort(new ConnectionClosedError("Session terminated"));
    this.#standalone = undefined;
    const signal = AbortSignal.timeout(state.closeTimeout);
    try {
      const headers = state.startHeaders();
      headers[Header.SessionId] = id;
      if (state.protocolVersion !== undefined) headers[Header.ProtocolVersion] = state.protocolVersion;
      const response = await fetchOnOrigin(
        state.fetch,
        state.url,
        { method: "DELETE", headers, signal },
        state.bodyReader,
      );
      discardBody(response, state.bodyReader);
    } catch (error) {
      state.onError(new TransportError(`DELETE of session ${id} failed`, { cause: error }));
    }
  }

  #openGet(lastEventId: string, signal: AbortSignal): Promise<Response> {
    const state = this.#state;
    const headers = state.startHeaders();
    headers.accept = "text/event-stream";
    if (this.sessionId !== undefined) headers[Header.SessionId] = this.sessionId;
    if (state.protocolVersion !== undefined) headers[Header.ProtocolVersion] = state.protocolVersion;
    if (lastEventId !== "") headers[Header.LastEventId] = lastEventId;
    return fetchExchange(state, "GET", headers, undefined, signal);
  }

  /** Keeps the standalone GET stream open, resuming after the server's retry. */
  async #runStandalone(controller: AbortController): Promise<void> {
    const state = this.#state;
    const signal = controller.signal;
    const cursor: SseCursor = { lastEventId: "", retry: undefined };
    let failures = 0;
    while (!signal.aborted && this.sessionId !== undefined) {
      let response: Response;
      try {
        response = await this.#openGet(cursor.lastEventId, signal);
      } catch (error) {
        if (signal.aborted) return;
        failures++;
        if (failures > state.reconnect.maxRetries) throw error;
        await sleep(state.backoff(failures, cursor), signal);
        continue;
      }
      if (response.status === 405) {
        // The server offers no standalone stream: fine.
        discardBody(response, state.bodyReader);
        return;
      }
      if (response.status === 404) {
        discardBody(response, state.bodyReader);
        this.expire();
        return;
      }
      if (!response.ok) {
        discardBody(response, state.bodyReader);
        failures++;
        if (failures > state.reconnect.maxRetries)
          throw new HttpError(response.status, response.statusText, "", undefined, state.url);
      } else {
        const before = cursor.lastEventId;
        try {
          await readSseReply(state, response, cursor, undefined, signal);
        } catch (error) {
          if (signal.aborted) return;
          // A cut stream is not reopened: resuming would replay the same event.
          if (error instanceof ResponseTooLargeError) throw error;
        }
        failures = cursor.lastEventId === before ? failures + 1 : 0;
        if (failures > state.reconnect.maxRetries) {
          throw new TransportError("The GET stream keeps ending without events; giving up");
        }
      }
      await sleep(state.backoff(failures, cursor), signal);
    }
  }
}
