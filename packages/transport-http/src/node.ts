import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from "./handler.js";
import { errorReply, hostAllowed, isLoopbackHostname, Reply } from "./internal/http-util.js";
import { type HandlerCore, handlerCores, type InboundRequest, TOO_LARGE } from "./internal/inbound.js";
import type { HttpLimitEvent } from "./limits.js";
import { logLimit } from "./limits.js";

/** Default time a client has to send a request's headers (slowloris): 10 s. */
export const DEFAULT_HEADERS_TIMEOUT = 10_000;
/** Default time a client has to send a whole request, headers and body: 30 s. */
export const DEFAULT_REQUEST_TIMEOUT = 30_000;
/** Default cap on a request's headers, in bytes (Node's own default): 16 KiB; larger ones get 431. */
export const DEFAULT_MAX_HEADER_SIZE = 16 * 1024;

/** The Host names a loopback-bound server accepts by default (any port). */
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions {
  /** Only this path is served (default `/mcp`); others get 404. */
  path?: string;
  /** Host header values allowed (see the handler's `allowedHosts`); unset: no Host check. */
  allowedHosts?: readonly string[] | undefined;
  /**
   * Serves a GET outside `path` (for example the OAuth protected resource metadata at its well-known
   * URL): a Response is sent as it is, undefined gives the usual 404.
   */
  otherRoutes?: ((request: Request) => Response | undefined | Promise<Response | undefined>) | undefined;
}

/**
 * Adapts a handler to a `node:http` request listener, for apps that run their own server. It only
 * translates: the request (body read up to the handler's cap) becomes a `Request` whose `signal`
 * aborts when the client disconnects, and the `Response` (JSON or a streamed SSE body) is written
 * back with backpressure. A handler made by `createStreamableHttpHandler` is served without either:
 * its replies (a JSON text, an SSE connection) go straight to the socket, and the `Request` the app
 * may see (`info.httpRequest`, `authenticate`) is built only when it is read.
 */
export function toNodeListener(
  handler: StreamableHttpHandler,
  options: NodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const path = options.path ?? "/mcp";
  const allowedHosts = options.allowedHosts;
  const core = handlerCores.get(handler);
  // Host headers that passed the Host check and made a valid URL (a client sends the same one every time).
  const goodHosts = new Set<string>();
  const context: ServeContext = {
    handler,
    core,
    path,
    allowedHosts,
    otherRoutes: options.otherRoutes,
    goodHosts,
  };
  return (req, res) => {
    serve(context, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end();
    });
  };
}

interface ServeContext {
  handler: StreamableHttpHandler;
  core: HandlerCore | undefined;
  path: string;
  allowedHosts: readonly string[] | undefined;
  otherRoutes: NodeListenerOptions["otherRoutes"];
  goodHosts: Set<string>;
}

const CLIENT_GONE = "The client closed the connection";

/** The handler's view of a node request: headers read from `rawHeaders`, a `Request` built on demand. */
class NodeInbound implements InboundRequest {
  identity?: { value: unknown };
  private built: Request | undefined;
  private builtHeaders: Headers | undefined;
  private controller: AbortController | undefined;
  private goneFns: Array<() => void> | undefined;
  private isGone = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly hostHeader: string,
    private readonly body: Buffer | undefined,
    private readonly oversized: boolean,
  ) {}

  get method(): string {
    return this.req.method ?? "GET";
  }

  header(name: string): string | null {
    // A scan of the raw list (a dozen entries) allocates nothing; names arrive lower-case already.
    const raw = this.req.rawHeaders;
    let out: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const key = raw[i]!;
      if (key.length !== name.length || (key !== name && key.toLowerCase() !== name)) continue;
      out = out === null ? raw[i + 1]! : `${out}, ${raw[i + 1]!}`;
    }
    return out;
  }

  host(): string {
    return this.header("host") ?? "localhost";
  }

  readBody(maxBytes: number): string | typeof TOO_LARGE {
    if (this.oversized) return TOO_LARGE;
    const body = this.body;
    if (body === undefined || body.length === 0) return "";
    if (body.length > maxBytes) return TOO_LARGE;
    const text = body.toString("utf8");
    // As Request.text() does: a leading BOM is not part of the text.
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  onGone(fn: () => void): void {
    if (this.isGone) fn();
    else (this.goneFns ??= []).push(fn);
  }

  /** The socket closed before the reply was complete. */
  gone(): void {
    if (this.isGone) return;
    this.isGone = true;
    this.controller?.abort(new Error(CLIENT_GONE));
    const fns = this.goneFns;
    this.goneFns = undefined;
    if (fns) for (const fn of fns) fn();
  }

  get headers(): Headers {
    if (this.builtHeaders === undefined) {
      const headers = new Headers();
      const raw = this.req.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
      // A body cut at the cap no longer matches its declared length.
      if (this.oversized && this.body !== undefined) headers.delete("content-length");
      this.builtHeaders = headers;
    }
    return this.builtHeaders;
  }

  get request(): Request {
    if (this.built === undefined) {
      // The Request's signal is how a Web-standard reader learns that the client left.
      const controller = new AbortController();
      this.controller = controller;
      if (this.isGone) controller.abort(new Error(CLIENT_GONE));
      const url = new URL(this.req.url ?? "/", `http://${this.hostHeader || "localhost"}`).href;
      const init: RequestInit = { method: this.method, headers: this.headers, signal: controller.signal };
      if (this.body !== undefined && this.body.length > 0) init.body = this.body as Uint8Array<ArrayBuffer>;
      this.built = new Request(url, init);
    }
    return this.built;
  }
}

async function serve(context: ServeContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { handler, core, path, allowedHosts, otherRoutes, goodHosts } = context;
  const host = req.headers.host ?? "";
  const rawUrl = req.url ?? "/";
  const query = rawUrl.indexOf("?");
  const pathname = query < 0 ? rawUrl : rawUrl.slice(0, query);
  if (allowedHosts !== undefined && !goodHosts.has(host) && !hostAllowed(host, allowedHosts)) {
    req.resume();
    writeReply(errorReply(403, -32600, "Forbidden: host not allowed"), res);
    return;
  }
  if (pathname !== path) {
    req.resume();
    const other =
      otherRoutes && (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS")
        ? await otherRoutes(
            new Request(new URL(rawUrl, `http://${host || "localhost"}`), { method: req.method }),
          )
        : undefined;
    if (other) await write(other, res);
    else writeReply(errorReply(404, -32600, "Not found"), res);
    return;
  }
  if (!goodHosts.has(host)) {
    try {
      new URL(rawUrl, `http://${host || "localhost"}`);
      if (goodHosts.size < 256) goodHosts.add(host);
    } catch {
      req.resume();
      writeReply(errorReply(400, -32600, "Bad Request: invalid Host"), res);
      return;
    }
  }

  let body: Buffer | undefined;
  let oversized = false;
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (declared > handler.maxBodyBytes) {
    // The declared length is refused by the handler without reading a byte.
    oversized = true;
  } else if (req.method !== "GET" && req.method !== "HEAD") {
    body = await readNodeBody(req, handler.maxBodyBytes);
    if (body.length > handler.maxBodyBytes) oversized = true;
  }

  const inbound = new NodeInbound(req, host, body, oversized);
  res.on("close", () => {
    if (!res.writableFinished) inbound.gone();
  });
  const reply = core ? await core(inbound) : await handler.fetch(inbound.request);
  if (oversized) res.setHeader("connection", "close");
  if (reply instanceof Reply) writeReply(reply, res, inbound);
  else await write(reply, res);
  if (oversized) req.destroy();
}

/** The body, read until it ends or passes `max` (then what arrived so far, which is over the cap). */
function readNodeBody(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = () => {
      req.off("data", onData);
      req.off("end", finish);
      req.off("error", onError);
      req.off("close", onClose);
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      // Enough to be refused with 413; the rest is not read.
      if (total > max) {
        req.pause();
        finish();
      }
    };
    const onError = (error: Error) => {
      req.off("data", onData);
      req.off("end", finish);
      req.off("close", onClose);
      reject(error);
    };
    const onClose = () => {
      if (!req.complete) onError(new Error(CLIENT_GONE));
    };
    req.on("data", onData);
    req.once("end", finish);
    req.once("error", onError);
    req.once("close", onClose);
  });
}

/** Writes a reply the handler built: an in-memory body at once, an SSE connection as it goes. */
function writeReply(reply: Reply, res: ServerResponse, inbound?: NodeInbound): void {
  const body = reply.body;
  const head: string[] = [];
  for (const key in reply.headers) head.push(key, reply.headers[key]!);
  if (typeof body === "string") {
    head.push("content-length", String(Buffer.byteLength(body)));
    res.writeHead(reply.status, head);
    res.end(body);
    return;
  }
  if (body === null) {
    res.writeHead(reply.status, head);
    res.end();
    return;
  }
  // A stream that is complete already (a modern reply answered at once) goes out in one write.
  const complete = body.takeComplete();
  if (complete !== undefined) {
    head.push("content-length", String(Buffer.byteLength(complete)));
    res.writeHead(reply.status, head);
    res.end(complete);
    return;
  }
  res.writeHead(reply.status, head);
  // SSE: the client must see the headers (and the priming event) before the first message exists; when
  // an event waits already, its write carries the headers.
  if (!body.hasPending) res.flushHeaders();
  if (inbound) inbound.onGone(() => body.gone());
  else res.once("close", () => body.gone());
  // Writes of one tick (an event and the end of the stream, say) leave in one packet. The socket is
  // corked, not the response: Node 22's ServerResponse.uncork() ends a chunked body after the second
  // corked batch (a premature `0` chunk), cutting an SSE stream; socket corking batches the same writes.
  let corked: Socket | null = null;
  const uncork = () => {
    const socket = corked;
    corked = null;
    socket?.uncork();
  };
  body.attach({
    // Only what stayed unsent since an earlier tick counts: this tick's writes wait for uncork anyway.
    buffered: () => (corked !== null ? 0 : res.writableLength),
    destroy: () => res.destroy(),
    write: (text) => {
      if (corked === null && res.socket) {
        corked = res.socket;
        corked.cork();
        process.nextTick(uncork);
      }
      res.write(text);
    },
    end: () => {
      res.end();
    },
  });
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};

/** The limit a parser error of node:http stands for (header size, header or request timeout), if any. */
function clientErrorLimit(
  code: string | undefined,
  limits: { headersTimeout: number; requestTimeout: number; maxHeaderSize: number },
): HttpLimitEvent | undefined {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        limit: "maxHeaderSize",
        value: limits.maxHeaderSize,
        status: 431,
        message: "a request's headers were refused with 431",
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        limit: "requestTimeout",
        value: limits.requestTimeout,
        status: 408,
        message: "a request not received in time was refused with 408 (headers or body too slow)",
      };
    case "HPE_HEADERS_TIMEOUT":
    case "ERR_HTTP_HEADERS_TIMEOUT":
      return {
        limit: "headersTimeout",
        value: limits.headersTimeout,
        status: 408,
        message: "a request's headers not received in time were refused with 408",
      };
    default:
      return undefined;
  }
}

/** Writes a Web `Response` (a hand-written handler's, or an app's own route), streaming its body. */
async function write(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  if (response.body === null) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  res.writeHead(response.status, headers);
  // SSE: the client must see the headers (and the priming event) before the first message exists.
  res.flushHeaders();
  const reader = response.body.getReader();
  const onClose = () => {
    reader.cancel().catch(() => {});
  };
  res.on("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off("drain", go);
            res.off("close", go);
            resolve();
          };
          res.on("drain", go);
          res.on("close", go);
        });
        if (res.destroyed) break;
      }
    }
  } catch {
    // The stream was cancelled because the client left.
  } finally {
    res.off("close", onClose);
    res.end();
  }
}

/** Options of {@link listen}: where to listen, and either a handler or the options to make one. */
export interface ListenOptions extends Partial<StreamableHttpHandlerOptions> {
  /** Default `127.0.0.1`. Binding to loopback turns on the Host check (DNS-rebinding protection). */
  host?: string;
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default `/mcp`. */
  path?: string;
  /**
   * A ready handler; otherwise one is created from the other options (`server` or `connect` is then
   * required; `server` is the MCP server, not to be confused with the handle's `node:http` server).
   */
  handler?: StreamableHttpHandler;
  /** GETs outside `path` (see {@link NodeListenerOptions.otherRoutes}). */
  otherRoutes?: NodeListenerOptions["otherRoutes"];
  /** Time (ms) a client has to send a request's headers; then 408 and the connection closes. Default 10 s. */
  headersTimeout?: number;
  /**
   * Time (ms) a client has to send a whole request, body included (a slow body); then 408 and the
   * connection closes. Responses (SSE streams) are not bounded by it. Default 30 s.
   */
  requestTimeout?: number;
  /** Cap (bytes) on a request's headers; larger ones get 431 and the connection closes. Default 16 KiB. */
  maxHeaderSize?: number;
}

/** A listening server; `close()` ends open SSE streams, sessions and the server. */
export interface HttpServerHandle {
  /** `http://host:port/path`. */
  readonly url: string;
  readonly port: number;
  readonly handler: StreamableHttpHandler;
  readonly server: Server;
  /** Ends every session and stream, stops listening, and closes the remaining connections. Idempotent. */
  close(): Promise<void>;
}

/**
 * Serves a Streamable HTTP handler on `node:http` (keep-alive on). Bound to a loopback address (the
 * default), requests whose `Host` is not a loopback name get 403 unless `allowedHosts` says
 * otherwise; `Origin` is checked by the handler.
 * @throws when none of `handler`, `server` and `connect` is given, or the port cannot be bound.
 */
export async function listen(options: ListenOptions): Promise<HttpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  let handler = options.handler;
  if (!handler) {
    const {
      host: _h,
      port: _p,
      path: _path,
      handler: _handler,
      otherRoutes: _o,
      headersTimeout: _ht,
      requestTimeout: _rt,
      maxHeaderSize: _mh,
      connect,
      ...rest
    } = options;
    if (!connect && !rest.server) throw new TypeError("listen() needs `handler`, `server` or `connect`");
    handler = createStreamableHttpHandler(connect ? { ...rest, connect } : rest);
  }
  const loopback = isLoopbackHostname(host.startsWith("[") ? host : host.includes(":") ? `[${host}]` : host);
  const allowedHosts = options.allowedHosts ?? (loopback ? LOOPBACK_HOSTS : undefined);
  const headersTimeout = options.headersTimeout ?? DEFAULT_HEADERS_TIMEOUT;
  const requestTimeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
  const maxHeaderSize = options.maxHeaderSize ?? DEFAULT_MAX_HEADER_SIZE;
  const server = createServer(
    {
      keepAlive: true,
      headersTimeout,
      requestTimeout,
      maxHeaderSize,
      // Timeouts are checked this often; a tenth of the shorter one keeps them close to their value.
      connectionsCheckingInterval: Math.max(
        100,
        Math.min(headersTimeout, requestTimeout || headersTimeout) / 10,
      ),
    },
    toNodeListener(handler, { path, allowedHosts, otherRoutes: options.otherRoutes }),
  );
  server.keepAliveTimeout = 30_000;
  const onLimit = options.onLimit ?? logLimit;
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    // node:http reports both timeouts as one code: a parser without a message yet had no whole headers.
    const code =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT" &&
      !(socket as { parser?: { incoming?: unknown } }).parser?.incoming
        ? "ERR_HTTP_HEADERS_TIMEOUT"
        : error.code;
    const limit = clientErrorLimit(code, { headersTimeout, requestTimeout, maxHeaderSize });
    if (limit) {
      try {
        onLimit(limit);
      } catch {
        // A throwing logger must not keep the socket open.
      }
    }
    const status = limit?.status ?? 400;
    // A response already under way cannot be replaced by an error status: the socket just goes.
    const pending = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !pending?.headersSent) {
      const body = JSON.stringify({
        jsonrpc: "2.0",
        error: { code: -32600, message: limit ? STATUS_TEXT[status] : "Bad Request" },
      });
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Bad Request"}\r\nconnection: close\r\n` +
          `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    } else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const h = handler;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}${path}`,
    port,
    handler: h,
    server,
    close() {
      closing ??= (async () => {
        await h.close();
        const done = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Streams were ended above; whatever is still open after a moment is cut.
        const timer = setTimeout(() => server.closeAllConnections(), 1000);
        timer.unref();
        await done;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}

export { nodeBodyReader } from "./node-body-reader.js";
export { createNodeFetch, type FetchLike, type NodeFetch, type NodeFetchOptions } from "./node-fetch.js";
