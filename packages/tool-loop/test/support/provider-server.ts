import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the scripted provider received, body parsed as JSON. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: any;
}

/**
 * What a turn of the script answers: a JSON body (status 200 unless given), `hold` to never answer, or
 * a server-sent event stream: each event as one `data:` line (after an `event:` line naming its `type`,
 * when it has one), then `data: [DONE]` when `done`, then the end, unless `hold` keeps it open (the
 * test then sees the client drop it through `dropped`).
 */
export type ProviderReply =
  | { status?: number; json: unknown }
  | { sse: readonly unknown[]; done?: boolean; hold?: boolean }
  | "hold";

/** A loopback HTTP server playing a scripted model in some provider's wire format. */
export interface ProviderServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** Resolves once `count` requests have arrived. */
  received(count: number): Promise<void>;
  /** Resolves when the client dropped a held request (it aborted). */
  readonly dropped: Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the scripted provider on 127.0.0.1 and an ephemeral port. `reply(request, index)` gives the
 * answer to the index-th request; a throw answers 500 so the test sees the reason.
 */
export async function startProviderServer(
  reply: (request: RecordedRequest, index: number) => ProviderReply,
): Promise<ProviderServer> {
  const requests: RecordedRequest[] = [];
  let onDropped!: () => void;
  const dropped = new Promise<void>((resolve) => {
    onDropped = resolve;
  });
  const held = new Set<ServerResponse>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) {
      if (requests.length >= waiter.count) waiter.resolve();
      else waiters.push(waiter);
    }
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const request: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: text === "" ? undefined : JSON.parse(text),
      };
      const index = requests.push(request) - 1;
      wake();
      let answer: ProviderReply;
      try {
        answer = reply(request, index);
      } catch (error) {
        answer = { status: 500, json: { error: { message: String(error), type: "script_error" } } };
      }
      if (answer !== "hold" && "sse" in answer) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        for (const event of answer.sse) {
          const type = (event as { type?: unknown }).type;
          if (typeof type === "string") res.write(`event: ${type}\n`);
          res.write(`data: ${JSON.stringify(event)}\n\n`);
        }
        if (answer.done) res.write("data: [DONE]\n\n");
        if (!answer.hold) {
          res.end();
          return;
        }
      }
      if (answer === "hold" || "sse" in answer) {
        held.add(res);
        res.on("close", () => {
          held.delete(res);
          onDropped();
        });
        return;
      }
      res.writeHead((answer as { status?: number }).status ?? 200, { "content-type": "application/json" });
      res.end(JSON.stringify((answer as { json: unknown }).json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    dropped,
    received: (count) =>
      new Promise<void>((resolve) => {
        waiters.push({ count, resolve });
        wake();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
