// A custom Transport: implement `start(sink)`, `send(message, options)`, `close(reason)` and `traits`
// (from @mcpkit/jsonrpc) and every client, server and Peer runs on it. This one carries messages over a
// MessageChannel (worker threads, iframes, browser extensions use the same API).
// Run: pnpm --filter @mcpkit/docs example examples/transport-custom.ts
import { createClient } from "@mcpkit/client";
import {
  ConnectionClosedError,
  type JsonRpcMessage,
  type Transport,
  type TransportSink,
} from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";

function messagePortTransport(port: MessagePort): Transport {
  let sink: TransportSink | undefined;
  let closed = false;
  const close = async (reason?: Error) => {
    if (closed) return; // close is idempotent
    closed = true;
    port.postMessage({ bye: true });
    port.close();
    sink?.onClose(reason);
  };
  return {
    // Each message has no response stream of its own: the Peer sends notifications/cancelled.
    traits: { perRequestStream: false },
    async start(s) {
      if (sink) throw new Error("messagePortTransport: start() called twice");
      sink = s;
      port.onmessage = (event: MessageEvent) => {
        if ((event.data as { bye?: boolean }).bye) void close();
        else sink?.onMessage(event.data);
      };
    },
    async send(message: JsonRpcMessage) {
      if (closed) throw new ConnectionClosedError("messagePortTransport is closed");
      port.postMessage(message); // structured clone: no JSON encoding needed
    },
    close,
  };
}

const server = createServer({ name: "over-a-port", version: "1.0.0" });
server.registerTool("where", {}, () => "answered through a MessageChannel");

const channel = new MessageChannel();
await server.connect(messagePortTransport(channel.port2));
const client = createClient({ name: "docs", version: "1.0.0" });
await client.connect(messagePortTransport(channel.port1));
console.log((await client.callTool("where")).content, `(era ${client.era})`);
await client.close();
await server.close();
