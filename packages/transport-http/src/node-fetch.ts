import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";

/** A `fetch`-shaped function, as the client transports take it. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The fetch of {@link createNodeFetch}, with a way to close the keep-alive sockets it owns. */
export type NodeFetch = FetchLike & {
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
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  if (headers === undefined) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers);
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  return { ...(headers as Record<string, string>) };
}

function responseHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
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
  const httpAgent = options.httpAgent ?? new HttpAgent({ keepAlive: true, maxSockets });
  const httpsAgent = options.httpsAgent ?? new HttpsAgent({ keepAlive: true, maxSockets });

  const nodeFetch: FetchLike = (input, init = {}) => {
    const body = init.body;
    if (
      input instanceof Request ||
      (body != null && typeof body !== "string" && !(body instanceof Uint8Array))
    ) {
      return fetch(input, init);
    }
    const url = input instanceof URL ? input : new URL(input);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const method = (init.method ?? "GET").toUpperCase();
    const headers = plainHeaders(init.headers);
    if (body != null) headers["content-length"] = String(Buffer.byteLength(body));
    const secure = url.protocol === "https:";

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
      const req = (secure ? httpsRequest : httpRequest)(
        url,
        { method, headers, agent: secure ? httpsAgent : httpAgent },
        (res) => {
          response = res;
          const status = res.statusCode ?? 0;
          if (REDIRECTS.has(status) && init.redirect !== "manual") {
            res.resume();
            done();
            settled = true;
            resolve(fetch(input, init));
            return;
          }
          const head = { status, statusText: res.statusMessage ?? "", headers: responseHeaders(res) };
          const type = res.headers["content-type"] ?? "";
          if (method === "HEAD" || status === 204 || status === 304) {
            res.resume();
            done();
            settled = true;
            resolve(new Response(null, head));
            return;
          }
          if (type.includes("text/event-stream")) {
            // A stream: handed over as it arrives; the abort listener stays until it ends.
            res.once("close", done);
            settled = true;
            resolve(new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, head));
            return;
          }
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.once("error", fail);
          res.once("end", () => {
            done();
            if (settled) return;
            settled = true;
            const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
            resolve(
              new Response(
                new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer>,
                head,
              ),
            );
          });
        },
      );
      req.once("error", fail);
      signal?.addEventListener("abort", onAbort, { once: true });
      req.end(body ?? undefined);
    });
  };
  return Object.assign(nodeFetch, {
    destroy() {
      if (!options.httpAgent) httpAgent.destroy();
      if (!options.httpsAgent) httpsAgent.destroy();
    },
  });
}
