import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Reply } from "../internal/http-util.js";
import type { NodeInbound } from "./inbound.js";

/** Writes a reply the handler built: an in-memory body at once, an SSE connection as it goes. */
export function writeReply(reply: Reply, res: ServerResponse, inbound?: NodeInbound): void {
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

/** Writes a Web `Response` (a hand-written handler's, or an app's own route), streaming its body. */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
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
