import type { IncomingMessage, ServerResponse } from "node:http";
import type { StreamableHttpHandler } from "../handler.js";
import { CoreHandler, type HandlerCore } from "../internal/core-handler.js";
import { errorReply, hostAllowed, Reply } from "../internal/http-util.js";
import { drainNodeBody } from "./drain.js";
import { NodeInbound, readNodeBody } from "./inbound.js";
import { writeReply, writeResponse } from "./reply.js";

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
  const core = handler instanceof CoreHandler ? handler.core : undefined;
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
    if (other) await writeResponse(other, res);
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
  let drained = true;
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (declared > handler.maxBodyBytes) {
    // The declared length is refused by the handler without reading a byte.
    oversized = true;
  } else if (req.method !== "GET" && req.method !== "HEAD") {
    body = await readNodeBody(req, handler.maxBodyBytes);
    if (body.length > handler.maxBodyBytes) {
      oversized = true;
      // The rest of the upload is read and dropped (bounded) before the 413, which then closes cleanly.
      drained = await drainNodeBody(req);
    }
  }

  const inbound = new NodeInbound(req, host, body, oversized);
  res.on("close", () => {
    if (!res.writableFinished) inbound.gone();
  });
  const reply = core ? await core(inbound) : await handler.fetch(inbound.request);
  // A declared length over the cap is answered before its body is read; the body is drained after the
  // answer (bounded), and the connection stays usable. A body read past the cap was drained already, and
  // its connection closes once the answer is flushed.
  const declaredOnly = oversized && body === undefined;
  if (oversized && !declaredOnly) res.setHeader("connection", "close");
  if (res.destroyed) return;
  if (reply instanceof Reply) writeReply(reply, res, inbound);
  else await writeResponse(reply, res);
  if (declaredOnly) drained = await drainNodeBody(req);
  // Past the drain's bounds the connection is cut (the answer was written first).
  if (!drained) req.destroy();
}
