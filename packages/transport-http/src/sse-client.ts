import {
  ConnectionClosedError,
  type JsonRpcMessage,
  TimeoutError,
  type Transport,
  TransportError,
  type TransportSink,
  type TransportTraits,
} from "@mcpkit/jsonrpc";
import { discardBody, type ResponseBodyReader, readBoundedText, readEventStream } from "./body-reader.js";
import { HttpError, ResponseTooLargeError } from "./errors.js";
import { networkError } from "./internal/network-error.js";
import { fetchOnOrigin } from "./internal/redirects.js";
import { cutStream } from "./internal/response-cap.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./limits.js";
import { createSseParser } from "./sse-parser.js";

/** Options of {@link createSseClientTransport}. */
export interface SseClientTransportOptions {
  /** The server's SSE endpoint (GET). */
  url: string | URL;
  headers?: Record<string, string>;
  /** The fetch to use (default the global one); authorization wraps it (`withAuth` from `@mcpkit/auth`). */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Reads the event stream the fetch's own way (see `StreamableHttpClientTransportOptions.bodyReader`). */
  bodyReader?: ResponseBodyReader;
  /** How long `start()` waits for the `endpoint` event, in ms. Default 10 000. */
  endpointTimeout?: number;
  /**
   * The most one SSE event or one POST response body may hold (see
   * `StreamableHttpClientTransportOptions.maxResponseBytes`); past it the stream is cut and the transport
   * closes with `ResponseTooLargeError`. Default `DEFAULT_MAX_RESPONSE_BYTES` (16 MiB).
   */
  maxResponseBytes?: number;
}

/** The 2024-11-05 HTTP+SSE client transport. */
export interface SseClientTransport extends Transport {
  /** The URL messages are POSTed to, once the server announced it. */
  readonly endpoint: URL | undefined;
}

/**
 * Creates a client transport for the 2024-11-05 "HTTP with SSE" transport, the fallback for servers
 * that predate Streamable HTTP: `start()` GETs `url`, waits (bounded) for the `endpoint` event, and
 * every message is then POSTed to that endpoint; everything the server sends arrives as `message`
 * events on the GET stream. The endpoint must have the same origin as `url` (else `start` rejects).
 * The stream ending closes the transport.
 * @see SPEC.md §4.8 HTTP+SSE back-compat
 */
export function createSseClientTransport(options: SseClientTransportOptions): SseClientTransport {
  const url = new URL(options.url);
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const endpointTimeout = options.endpointTimeout ?? 10_000;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const lifetime = new AbortController();
  const traits: TransportTraits = { perRequestStream: false };
  let sink: TransportSink | undefined;
  let endpoint: URL | undefined;
  let closed = false;

  function headers(): Record<string, string> {
    return Object.assign({}, options.headers);
  }

  async function close(reason?: Error): Promise<void> {
    if (closed) return;
    closed = true;
    lifetime.abort(reason ?? new ConnectionClosedError("The SSE transport was closed"));
    sink?.onClose(reason);
  }

  return {
    traits,
    get endpoint() {
      return endpoint;
    },
    async start(s) {
      if (sink) throw new Error("SseClientTransport.start() was called twice");
      if (closed) throw new ConnectionClosedError("The SSE transport is closed");
      sink = s;
      let announced!: (value: URL) => void;
      let failed!: (error: Error) => void;
      const ready = new Promise<URL>((resolve, reject) => {
        announced = resolve;
        failed = reject;
      });
      const h = headers();
      h.accept = "text/event-stream";
      let response: Response;
      try {
        response = await fetchOnOrigin(
          doFetch,
          url,
          { method: "GET", headers: h, signal: lifetime.signal },
          options.bodyReader,
        );
      } catch (error) {
        await close();
        throw error instanceof TransportError ? error : networkError("GET", url, error);
      }
      // 204 and 205 have no body to stream.
      if (!response.ok || response.status === 204 || response.status === 205) {
        discardBody(response, options.bodyReader);
        await close();
        throw new HttpError(response.status, response.statusText, "", undefined, url);
      }
      const parser = createSseParser({
        maxEventSize: maxResponseBytes,
        onEvent(event) {
          if (event.type === "endpoint") {
            if (endpoint) return;
            let target: URL;
            try {
              target = new URL(event.data, url);
            } catch {
              failed(new TransportError(`Invalid endpoint ${JSON.stringify(event.data)}`));
              return;
            }
            // A server must not be able to redirect our POSTs (and their credentials) to another origin.
            if (target.origin !== url.origin) {
              failed(new TransportError(`The endpoint ${target.href} is not on the origin of ${url.href}`));
              return;
            }
            endpoint = target;
            announced(target);
            return;
          }
          if (event.type !== "message" || closed) return;
          let value: unknown;
          try {
            value = JSON.parse(event.data);
          } catch (error) {
            sink?.onInvalid(error as Error);
            return;
          }
          sink?.onMessage(value);
        },
      });
      readEventStream(response, parser, lifetime.signal, options.bodyReader).then(
        () => {
          failed(new TransportError("The SSE stream ended before the endpoint event"));
          void close(new ConnectionClosedError("The server ended the SSE stream"));
        },
        (error: unknown) => {
          const cut = cutStream(error, url);
          const why =
            cut instanceof ResponseTooLargeError
              ? cut
              : new TransportError("The SSE stream failed", { cause: error });
          failed(why);
          if (!closed) void close(why);
        },
      );
      // Every wait is bounded: a server that never announces its endpoint fails start().
      const timer = setTimeout(
        () => failed(new TimeoutError(`No endpoint event within ${endpointTimeout} ms`, endpointTimeout)),
        endpointTimeout,
      );
      try {
        await ready;
      } catch (error) {
        await close();
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
    async send(message: JsonRpcMessage) {
      if (closed) throw new ConnectionClosedError("The SSE transport is closed");
      if (!endpoint) throw new Error("SseClientTransport.send() before start() resolved");
      const h = headers();
      h["content-type"] = "application/json";
      let response: Response;
      try {
        response = await fetchOnOrigin(
          doFetch,
          endpoint,
          { method: "POST", headers: h, body: JSON.stringify(message), signal: lifetime.signal },
          options.bodyReader,
        );
      } catch (error) {
        if (closed) throw new ConnectionClosedError("The SSE transport is closed");
        if (error instanceof TransportError) throw error;
        throw networkError("POST", endpoint, error);
      }
      // The answer arrives on the SSE stream; the POST body is only read to free the connection.
      const text = await readBoundedText(response, maxResponseBytes, options.bodyReader, endpoint).catch(
        () => "",
      );
      if (!response.ok)
        throw new HttpError(
          response.status,
          response.statusText,
          text.slice(0, 64 * 1024),
          undefined,
          endpoint,
        );
    },
    close,
  };
}
