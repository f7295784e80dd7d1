import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { urlToHttpOptions } from "node:url";
import { ResponseTooLargeError } from "./errors.js";
import { LightSignal, toAbortSignal } from "./internal/light-signal.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./limits.js";

/** A `fetch`-shaped function, as the client transports take it. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The fetch of {@link createNodeFetch}, with a way to close the keep-alive sockets it owns. */
export type NodeFetch = FetchLike & {
  /**
   * Always `true`: this fetch takes the client transport's light abort signal (the part of `AbortSignal`
   * it uses, no `AbortController` per request, which is costly on Node 20) and converts it itself before
   * anything else sees it. The Streamable HTTP client transport reads it off its `fetch` option; a
   * wrapper around this fetch does not carry it, so the wrapper gets real `AbortSignal`s.
   */
  readonly acceptsLightSignal: true;
  /** Closes the sockets of the agents this fetch created (agents passed in are left alone). */
  destroy(): void;
};

/** Options of {@link createNodeFetch}. */
export interface NodeFetchOptions {
  /** The agent for `http:` URLs. Default: a keep-alive agent owned by this fetch. */
  httpAgent?: HttpAgent;
  /** The agent for `https:` URLs. Default: a keep-alive agent owned by this fetch. */
  httpsAgent?: HttpsAgent;
  /** Sockets per origin for the default agents. Default 64. */
  maxSockets?: number;
  /**
   * The most bytes of a plain (non-SSE) body this fetch buffers; past it the exchange is cut and the fetch
   * rejects with `ResponseTooLargeError`. Default `DEFAULT_MAX_RESPONSE_BYTES` (16 MiB), the client
   * transports' own default cap; raise both together.
   */
  maxBodyBytes?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  if (headers === undefined) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers);
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  // Not a spread: a spread copy that then gets more keys costs a hidden class of its own per request.
  return Object.assign({}, headers as Record<string, string>);
}

/**
 * Gives `target` every member of `web` (a Web class prototype) that it does not define itself, each
 * forwarded to the real object `materialize` builds on first use: the light objects below are then
 * usable as the real thing (`instanceof` included), and only what is exotic pays for it.
 */
function forwardRest(
  target: object,
  web: object,
  materialize: (self: never) => object,
  instanceKeys: readonly string[] = [],
): void {
  Object.setPrototypeOf(target, web);
  for (const key of Reflect.ownKeys(web)) {
    // Members the light object has itself (on its prototype, or set on each instance) stay its own.
    if (key === "constructor" || Object.hasOwn(target, key) || instanceKeys.includes(key as string)) continue;
    const desc = Object.getOwnPropertyDescriptor(web, key)!;
    if (desc.get) {
      const get = desc.get;
      Object.defineProperty(target, key, {
        configurable: true,
        get(this: never) {
          return get.call(materialize(this));
        },
      });
    } else if (typeof desc.value === "function") {
      const fn = desc.value as (...args: unknown[]) => unknown;
      Object.defineProperty(target, key, {
        configurable: true,
        writable: true,
        value(this: never, ...args: unknown[]) {
          return fn.apply(materialize(this), args);
        },
      });
    }
  }
}

/**
 * The headers of a `node:http` response as `Headers`: `get` and `has` read the raw header list; any
 * other use (iteration, changes) works on a real `Headers` built then.
 */
class NodeResponseHeaders {
  real: Headers | undefined;

  constructor(private readonly raw: string[]) {}

  get(name: string): string | null {
    if (this.real) return this.real.get(name);
    const key = name.toLowerCase();
    const raw = this.raw;
    let out: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const k = raw[i]!;
      if (k.length !== key.length || k.toLowerCase() !== key) continue;
      out = out === null ? raw[i + 1]! : `${out}, ${raw[i + 1]!}`;
    }
    return out;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }
}

function realHeaders(self: NodeResponseHeaders): Headers {
  if (!self.real) {
    const headers = new Headers();
    const raw = (self as unknown as { raw: string[] }).raw;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    self.real = headers;
  }
  return self.real;
}

/**
 * A response of {@link createNodeFetch}: status, headers and a buffered body (`text()`, `json()`) are
 * read without building an undici `Response`; anything else (`body`, `clone()`, `blob()`, ...) builds
 * the real one first. An SSE body is a live `node:http` stream, read as it is by `nodeBodyReader` or as
 * a Web stream by anyone else.
 */
export class NodeResponse {
  readonly headers: Headers;
  readonly redirected = false;
  readonly type = "basic";
  real: Response | undefined;
  used = false;

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly url: string,
    private readonly res: IncomingMessage,
    /** The whole body, or undefined for a live stream (SSE) and for no body. */
    private bytes: Buffer | undefined,
    private streaming: boolean,
  ) {
    this.headers = new NodeResponseHeaders(res.rawHeaders) as unknown as Headers;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get bodyUsed(): boolean {
    return this.real ? this.real.bodyUsed : this.used;
  }

  text(): Promise<string> {
    if (this.real || this.streaming) return realResponse(this).text();
    if (this.used) return Promise.reject(new TypeError("Body is unusable: Body has already been read"));
    this.used = true;
    const bytes = this.bytes;
    if (bytes === undefined) return Promise.resolve("");
    const text = bytes.toString("utf8");
    // As Response.text() does: a leading BOM is not part of the text.
    return Promise.resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  }

  json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text) as unknown);
  }

  /** Settles the body once (createNodeFetch builds the response before it knows which kind it is). */
  setBody(bytes: Buffer | undefined, streaming: boolean): this {
    this.bytes = bytes;
    this.streaming = streaming;
    return this;
  }

  /** Takes the live SSE stream (the body counts as read); null when there is none to take. */
  takeEventStream(): IncomingMessage | null {
    if (!this.streaming || this.real || this.used) return null;
    this.used = true;
    return this.res;
  }

  /**
   * Releases a body nobody will read: a live stream is destroyed, a buffered one has nothing left to
   * free. False once the real `Response` exists: its own body is then the one to cancel.
   */
  releaseBody(): boolean {
    if (this.real) return false;
    if (this.streaming && !this.used) {
      this.used = true;
      this.res.destroy();
    }
    return true;
  }
}

/** The first `content-type` of a raw header list (names as sent, any case). */
function rawContentType(raw: string[]): string {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i]!;
    if (k.length === 12 && (k === "content-type" || k.toLowerCase() === "content-type")) return raw[i + 1]!;
  }
  return "";
}

/** What a request needs of its URL, computed once per URL (one shape for every request's options). */
interface Target {
  protocol: string | null | undefined;
  hostname: string | null | undefined;
  port: number | string | null | undefined;
  path: string | null | undefined;
  auth: string | null | undefined;
  secure: boolean;
}

function realResponse(self: NodeResponse): Response {
  if (!self.real) {
    const { res, bytes, streaming, status, statusText } = self as unknown as {
      res: IncomingMessage;
      bytes: Buffer | undefined;
      streaming: boolean;
      status: number;
      statusText: string;
    };
    const headers = realHeaders(self.headers as unknown as NodeResponseHeaders);
    let body: BodyInit | null = null;
    if (streaming) body = Readable.toWeb(res) as ReadableStream<Uint8Array>;
    else if (bytes !== undefined && status !== 204 && status !== 304) {
      body = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer>;
    }
    const real = new Response(body, { status, statusText, headers });
    if (self.used && real.body) {
      // Read through the light API already: the real one is read too.
      void real.body.cancel().catch(() => {});
    }
    self.real = real;
  }
  return self.real;
}

/** `init` for the global fetch: a light signal from the client transport becomes a real one. */
function webInit(init: RequestInit): RequestInit {
  return init.signal instanceof LightSignal
    ? Object.assign({}, init, { signal: toAbortSignal(init.signal) ?? null })
    : init;
}

let prototypesReady = false;

function readyPrototypes(): void {
  if (prototypesReady) return;
  prototypesReady = true;
  forwardRest(NodeResponseHeaders.prototype, Headers.prototype, realHeaders);
  forwardRest(NodeResponse.prototype, Response.prototype, realResponse, [
    "status",
    "statusText",
    "url",
    "headers",
    "redirected",
    "type",
  ]);
}

/**
 * A `fetch` for the client transports built on `node:http` keep-alive agents instead of the global
 * (undici) fetch, whose per-request cost dominates a busy MCP client: pass it as the transports'
 * `fetch` option (`connect()` from `mcpkit` does so on Node).
 *
 * It does what the transports need and no more: string or byte bodies, a plain response body read in
 * full (JSON replies), a streamed body for `text/event-stream`, the abort signal (which destroys the
 * socket's exchange, as closing a stream must), and redirects handed to the global fetch. Anything else
 * (a `Request` object, a streamed request body) also goes to the global fetch.
 */
export function createNodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const maxSockets = options.maxSockets ?? 64;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const httpAgent = options.httpAgent ?? new HttpAgent({ keepAlive: true, maxSockets });
  const httpsAgent = options.httpsAgent ?? new HttpsAgent({ keepAlive: true, maxSockets });

  readyPrototypes();
  // The request options of each URL, computed once (the transports post to one URL all along).
  const targets = new Map<string, Target>();

  const nodeFetch: FetchLike = (input, init = {}) => {
    const body = init.body;
    if (
      input instanceof Request ||
      (body != null && typeof body !== "string" && !(body instanceof Uint8Array))
    ) {
      return fetch(input, webInit(init));
    }
    const href = typeof input === "string" ? input : input.href;
    let target = targets.get(href);
    if (target === undefined) {
      const url = new URL(href);
      // Only what ClientRequest reads: fewer fields to copy on every request.
      const { protocol, hostname, port, path, auth } = urlToHttpOptions(url);
      target = {
        protocol,
        hostname,
        port: port === "" ? undefined : port,
        path,
        auth,
        secure: url.protocol === "https:",
      };
      if (targets.size >= 64) targets.clear();
      targets.set(href, target);
    }
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const method = init.method === undefined ? "GET" : init.method.toUpperCase();
    const headers = plainHeaders(init.headers);
    if (body != null) headers["content-length"] = String(Buffer.byteLength(body));
    const secure = target.secure;

    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      let response: IncomingMessage | undefined;
      const onAbort = () => {
        const reason = signal!.reason;
        req.destroy(reason instanceof Error ? reason : new Error(String(reason)));
        response?.destroy();
        if (!settled) {
          settled = true;
          reject(reason);
        }
      };
      const done = () => signal?.removeEventListener("abort", onAbort);
      const fail = (error: Error) => {
        done();
        if (!settled) {
          settled = true;
          reject(new TypeError("fetch failed", { cause: error }));
        }
      };
      // One literal of one shape per request (a spread of the target plus more keys costs a hidden
      // class per copy on Node 20); absent port/auth are undefined, which ClientRequest reads as absent.
      const requestOptions: RequestOptions = {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        path: target.path,
        auth: target.auth,
        method,
        headers,
        agent: secure ? httpsAgent : httpAgent,
      };
      const req = (secure ? httpsRequest : httpRequest)(requestOptions);
      req.once("response", (res: IncomingMessage) => {
        response = res;
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status) && init.redirect !== "manual") {
          res.resume();
          done();
          settled = true;
          resolve(fetch(input, webInit(init)));
          return;
        }
        const light = new NodeResponse(status, res.statusMessage ?? "", href, res, undefined, false);
        if (method === "HEAD" || status === 204 || status === 304) {
          res.resume();
          done();
          settled = true;
          resolve(light as unknown as Response);
          return;
        }
        if (rawContentType(res.rawHeaders).includes("text/event-stream")) {
          // A stream: handed over as it arrives; the abort listener stays until it ends.
          if (signal) res.once("close", done);
          settled = true;
          resolve(light.setBody(undefined, true) as unknown as Response);
          return;
        }
        const chunks: Buffer[] = [];
        let received = 0;
        const tooLarge = () => {
          res.destroy();
          done();
          if (settled) return;
          settled = true;
          reject(new ResponseTooLargeError("body", maxBodyBytes, href));
        };
        if (Number(res.headers["content-length"]) > maxBodyBytes) {
          tooLarge();
          return;
        }
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxBodyBytes) tooLarge();
          else chunks.push(chunk);
        });
        res.once("error", fail);
        res.once("end", () => {
          done();
          if (settled) return;
          settled = true;
          resolve(
            light.setBody(
              chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
              false,
            ) as unknown as Response,
          );
        });
      });
      req.once("error", fail);
      signal?.addEventListener("abort", onAbort, { once: true });
      req.end(body ?? undefined);
    });
  };
  return Object.assign(nodeFetch, {
    acceptsLightSignal: true as const,
    destroy() {
      if (!options.httpAgent) httpAgent.destroy();
      if (!options.httpsAgent) httpsAgent.destroy();
    },
  });
}
