import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from "../handler.js";
import { isLoopbackHostname } from "../internal/http-util.js";
import { type HttpLimitEvent, logLimit } from "../limits.js";
import { type NodeListenerOptions, toNodeListener } from "./listener.js";

/** Default time a client has to send a request's headers (slowloris): 10 s. */
export const DEFAULT_HEADERS_TIMEOUT = 10_000;
/** Default time a client has to send a whole request, headers and body: 30 s. */
export const DEFAULT_REQUEST_TIMEOUT = 30_000;
/** Default cap on a request's headers, in bytes (Node's own default): 16 KiB; larger ones get 431. */
export const DEFAULT_MAX_HEADER_SIZE = 16 * 1024;

/** The Host names a loopback-bound server accepts by default (any port). */
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

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
