import { once } from "node:events";
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { Socket } from "node:net";

/** Options of {@link startRoundRobinProxy}. */
export interface RoundRobinProxyOptions {
  /** Base URLs of the instances (`http://127.0.0.1:PORT`); the request's path and query are kept. */
  upstreams: readonly string[];
  /** Loopback port to listen on; default 0 (ephemeral). */
  port?: number;
  /**
   * Reuse connections to the instances (as nginx's `keepalive` upstream setting does) instead of one per
   * request. Default false: tests see every request on a fresh connection. The bench turns it on. A
   * request whose reused connection the instance had just closed goes to the next instance, so it may run
   * twice; keep it off where that matters.
   */
  keepAlive?: boolean;
}

/** One request the proxy forwarded. */
export interface ProxiedRequest {
  method: string;
  path: string;
  /** Index into `upstreams` of the instance that served it. */
  instance: number;
  /** The response status the instance gave. */
  status: number;
}

/** A running {@link startRoundRobinProxy}. */
export interface RoundRobinProxy {
  /** The proxy's origin, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Every forwarded request, in the order the instances answered. */
  readonly log: readonly ProxiedRequest[];
  /**
   * Takes an instance out of the rotation and cuts every connection open to it now (streams end as a
   * network failure would end them). Requests go to the others until {@link restore}.
   */
  cut(instance: number): void;
  /** Puts an instance back into the rotation. */
  restore(instance: number): void;
  close(): Promise<void>;
}

/** The response header naming the instance that served a request (its index into `upstreams`). */
export const INSTANCE_HEADER = "x-mcpkit-instance";

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"]);

/**
 * A load balancer for tests: an HTTP proxy on loopback that sends each request to the next instance in
 * turn, with no stickiness of any kind (no session affinity, no cookies), as a serverless or Kubernetes
 * front does. Request bodies are read whole first (as nginx buffers them), so a request whose instance
 * refuses the connection (killed, cut off) goes to the next one; once an instance has the request, its
 * answer is streamed back as it comes (SSE included) and a failure mid-answer breaks the client's
 * connection, as it would through a real proxy. Each answer carries {@link INSTANCE_HEADER}.
 *
 * Loopback only; it does NOT speak HTTPS, HTTP/2, upgrades or CONNECT.
 */
export async function startRoundRobinProxy(options: RoundRobinProxyOptions): Promise<RoundRobinProxy> {
  const upstreams = options.upstreams.map((u) => new URL(u));
  if (upstreams.length === 0) throw new TypeError("startRoundRobinProxy needs at least one upstream");
  const out = new Set<number>();
  const open = upstreams.map(() => new Set<Socket>());
  const log: ProxiedRequest[] = [];
  const agents = upstreams.map(() =>
    options.keepAlive ? new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY }) : false,
  );
  // A kept-alive socket carries many requests: tracked once.
  const tracked = new WeakSet<Socket>();
  let next = 0;

  function pick(tried: Set<number>): number | undefined {
    for (let i = 0; i < upstreams.length; i++) {
      const candidate = (next + i) % upstreams.length;
      if (!out.has(candidate) && !tried.has(candidate)) {
        next = (candidate + 1) % upstreams.length;
        return candidate;
      }
    }
    return undefined;
  }

  function forward(req: IncomingMessage, res: ServerResponse, body: Buffer, tried: Set<number>): void {
    const instance = pick(tried);
    if (instance === undefined) {
      res.writeHead(502, { "content-type": "text/plain" }).end("No instance could take the request");
      return;
    }
    tried.add(instance);
    const target = upstreams[instance]!;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    // The client's Host goes through unchanged (nginx's `proxy_set_header Host $host`, what a deployment
    // behind a load balancer sets): the instance judges a browser's Origin against the address the client
    // used, the proxy's, not its own.
    if (req.headers.host === undefined) headers.host = target.host;
    headers["content-length"] = String(body.length);
    let answered = false;
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers,
        agent: agents[instance]!,
      },
      (answer) => {
        answered = true;
        const status = answer.statusCode ?? 502;
        log.push({ method: req.method ?? "", path: req.url ?? "", instance, status });
        const back: Record<string, string | string[]> = { [INSTANCE_HEADER]: String(instance) };
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) back[name] = value;
        }
        res.writeHead(status, back);
        res.flushHeaders();
        answer.on("data", (chunk: Buffer) => res.write(chunk));
        answer.on("end", () => res.end());
        // A break mid-answer (the instance died or was cut): the client's connection breaks too.
        answer.on("aborted", () => res.destroy());
        answer.on("error", () => res.destroy());
      },
    );
    upstream.on("socket", (socket: Socket) => {
      if (tracked.has(socket)) return;
      tracked.add(socket);
      open[instance]!.add(socket);
      socket.once("close", () => open[instance]!.delete(socket));
    });
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (!answered && (error.code === "ECONNREFUSED" || error.code === "ECONNRESET") && !res.headersSent) {
        // The instance never took the request: another one may.
        forward(req, res, body, tried);
        return;
      }
      res.destroy();
    });
    // The client left: stop the instance's work on it too (HTTP disconnect is the cancel signal).
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.end(body);
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => forward(req, res, Buffer.concat(chunks), new Set()));
    req.on("error", () => res.destroy());
  });
  const clientSockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    clientSockets.add(socket);
    socket.once("close", () => clientSockets.delete(socket));
  });
  server.listen(options.port ?? 0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}`,
    log,
    cut(instance) {
      out.add(instance);
      for (const socket of open[instance]!) socket.destroy();
    },
    restore(instance) {
      out.delete(instance);
    },
    async close() {
      for (const sockets of open) for (const socket of sockets) socket.destroy();
      for (const agent of agents) if (agent) agent.destroy();
      for (const socket of clientSockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}
