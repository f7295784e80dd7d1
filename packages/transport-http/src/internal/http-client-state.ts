import type { JsonRpcId, TransportSink } from "@mcpkit/jsonrpc";
import { Header, isModernVersion } from "@mcpkit/protocol";
import type { ResponseBodyReader } from "../body-reader.js";
import type { StreamableHttpClientTransportOptions } from "../client.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "../limits.js";
import type { SseCursor } from "./sse-read.js";

/** The fetch the client transport calls. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A request message: what the transport reads of one to match its reply. */
export interface RequestMessage {
  id: JsonRpcId;
  method: string;
  params?: unknown;
}

/**
 * The settings and the live state of one Streamable HTTP client transport, handed to its parts (the
 * exchange, the reply reader, the legacy session): the options checked once, the era and version learnt
 * from what comes down with the sends, the sink, and the lifetime every fetch listens to.
 */
export class HttpClientState {
  readonly url: URL;
  readonly fetch: FetchLike;
  readonly bodyReader: ResponseBodyReader | undefined;
  readonly extraHeaders: Readonly<Record<string, string>>;
  readonly reconnect: Required<NonNullable<StreamableHttpClientTransportOptions["reconnect"]>>;
  readonly onError: (error: Error) => void;
  readonly closeTimeout: number;
  readonly maxResponseBytes: number;
  /** The fetch takes a light signal (`acceptsLightSignal`, createNodeFetch's): no AbortController per request. */
  readonly lightSignals: boolean;
  readonly options: StreamableHttpClientTransportOptions;
  /** Aborted on close: every fetch, read and reconnection delay listens to it. */
  readonly lifetime = new AbortController();
  /** Every fetch in flight has its own controller, aborted on close (no listener pile-up on one signal). */
  readonly inflight = new Set<{ abort(reason?: unknown): void }>();
  era: "legacy" | "modern";
  protocolVersion: string | undefined;
  sink: TransportSink | undefined = undefined;
  closed = false;

  constructor(options: StreamableHttpClientTransportOptions) {
    this.options = options;
    this.url = new URL(options.url);
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.bodyReader = options.bodyReader;
    this.extraHeaders = options.headers ?? {};
    this.reconnect = {
      initialDelay: options.reconnect?.initialDelay ?? 1000,
      maxDelay: options.reconnect?.maxDelay ?? 30_000,
      growFactor: options.reconnect?.growFactor ?? 1.5,
      maxRetries: options.reconnect?.maxRetries ?? 2,
    };
    this.onError = options.onError ?? (() => {});
    this.closeTimeout = options.closeTimeout ?? 3000;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.lightSignals = options.fetch?.acceptsLightSignal === true;
    this.protocolVersion = options.protocolVersion;
    const version = this.protocolVersion;
    this.era = options.era ?? (version !== undefined && isModernVersion(version) ? "modern" : "legacy");
  }

  /** A fresh map of the extra headers. Not a spread: more keys after one cost a hidden class per request. */
  startHeaders(): Record<string, string> {
    return Object.assign({}, this.extraHeaders);
  }

  /** Hands one value to the sink, unless closed. */
  deliver(value: unknown): void {
    if (this.closed) return;
    this.sink?.onMessage(value);
  }

  /**
   * Takes the era and version a request's headers name: the client negotiates, and says so with every
   * request it sends down. `initialize` is legacy by definition (it carries no version header).
   */
  follow(method: string, given: Readonly<Record<string, string>> | undefined): void {
    if (method === "initialize") {
      this.era = "legacy";
      return;
    }
    const version = given?.[Header.ProtocolVersion];
    if (version === undefined) return;
    this.protocolVersion = version;
    this.era = isModernVersion(version) ? "modern" : "legacy";
  }

  /** The delay before reconnection `attempt`: the server's `retry` wins (SEP-1699), else it grows. */
  backoff(attempt: number, cursor: SseCursor): number {
    if (cursor.retry !== undefined) return cursor.retry;
    const { initialDelay, growFactor, maxDelay } = this.reconnect;
    return Math.min(initialDelay * growFactor ** attempt, maxDelay);
  }
}
