import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from "./handler.js";
import { errorResponse, hostAllowed, isLoopbackHostname, rawBodies } from "./internal/http-util.js";

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
 * back with backpressure.
 */
export function toNodeListener(
  handler: StreamableHttpHandler,
  options: NodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const path = options.path ?? "/mcp";
  const allowedHosts = options.allowedHosts;
  return (req, res) => {
    serve(handler, req, res, path, allowedHosts, options.otherRoutes).catch(() => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end();
    });
  };
}

async function serve(
  handler: StreamableHttpHandler,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  allowedHosts: readonly string[] | undefined,
  otherRoutes?: NodeListenerOptions["otherRoutes"],
): Promise<void> {
  const host = req.headers.host ?? "";
  const rawUrl = req.url ?? "/";
  const query = rawUrl.indexOf("?");
  const pathname = query < 0 ? rawUrl : rawUrl.slice(0, query);
  if (allowedHosts !== undefined && !hostAllowed(host, allowedHosts)) {
    req.resume();
    await write(errorResponse(403, -32600, "Forbidden: host not allowed"), res);
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
    await write(other ?? errorResponse(404, -32600, "Not found"), res);
    return;
  }
  let url: string;
  try {
    url = new URL(rawUrl, `http://${host || "localhost"}`).href;
  } catch {
    req.resume();
    await write(errorResponse(400, -32600, "Bad Request: invalid Host"), res);
    return;
  }

  // The Request's signal is how the handler learns that the client left (modern cancellation).
  const abort = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort(new Error("The client closed the connection"));
  });

  let body: Buffer | undefined;
  let oversized = false;
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (declared > handler.maxBodyBytes) {
    // The declared length is refused by the handler without reading a byte.
    oversized = true;
  } else if (req.method !== "GET" && req.method !== "HEAD") {
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > handler.maxBodyBytes) {
        // Enough to be refused with 413; the rest is not read.
        chunks.push(chunk);
        oversized = true;
        break;
      }
      chunks.push(chunk);
    }
    body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  }

  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  if (oversized && body !== undefined) headers.delete("content-length");
  const init: RequestInit = { method: req.method ?? "GET", headers, signal: abort.signal };
  if (body !== undefined && body.length > 0) init.body = body as Uint8Array<ArrayBuffer>;
  const response = await handler.fetch(new Request(url, init));
  if (oversized) res.setHeader("connection", "close");
  await write(response, res);
  if (oversized) req.destroy();
}

async function write(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  // Bodies the handler made from a string are written as that string: no stream read-back per request.
  const text = rawBodies.get(response);
  if (text !== undefined) {
    headers["content-length"] = String(Buffer.byteLength(text));
    res.writeHead(response.status, headers);
    res.end(text);
    return;
  }
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
  /** A ready handler; otherwise one is created from the other options (`connect` is then required). */
  handler?: StreamableHttpHandler;
  /** GETs outside `path` (see {@link NodeListenerOptions.otherRoutes}). */
  otherRoutes?: NodeListenerOptions["otherRoutes"];
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
 * @throws when neither `handler` nor `connect` is given, or the port cannot be bound.
 */
export async function listen(options: ListenOptions): Promise<HttpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  let handler = options.handler;
  if (!handler) {
    const { host: _h, port: _p, path: _path, handler: _handler, otherRoutes: _o, connect, ...rest } = options;
    if (!connect) throw new TypeError("listen() needs either `handler` or `connect`");
    handler = createStreamableHttpHandler({ ...rest, connect });
  }
  const loopback = isLoopbackHostname(host.startsWith("[") ? host : host.includes(":") ? `[${host}]` : host);
  const allowedHosts = options.allowedHosts ?? (loopback ? LOOPBACK_HOSTS : undefined);
  const server = createServer(
    { keepAlive: true },
    toNodeListener(handler, { path, allowedHosts, otherRoutes: options.otherRoutes }),
  );
  server.keepAliveTimeout = 30_000;
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

export { createNodeFetch, type FetchLike, type NodeFetch, type NodeFetchOptions } from "./node-fetch.js";
