import type { ServerResponse } from "node:http";

/** One live update pushed to the page over the event stream. */
export interface InspectorEvent {
  type: string;
  connection?: string;
  [key: string]: unknown;
}

/** The page's event stream (Server-Sent Events): every open stream gets every event. */
export interface EventHub {
  /** Sends `event` to every open stream. */
  publish(event: InspectorEvent): void;
  /** Holds `res` open as an event stream until the page goes away. */
  attach(res: ServerResponse): void;
  /** Ends every stream. */
  close(): void;
}

/** Creates an {@link EventHub}; a stream whose socket is not draining is dropped, not buffered forever. */
export function createEventHub(): EventHub {
  const streams = new Set<ServerResponse>();
  return {
    publish(event) {
      const frame = `data: ${JSON.stringify(event)}\n\n`;
      for (const res of streams) {
        // A page that stopped reading (a frozen tab) must not make the server hold megabytes for it.
        if (res.writableLength > 8 * 1024 * 1024) {
          streams.delete(res);
          res.destroy();
          continue;
        }
        res.write(frame);
      }
    },
    attach(res) {
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
      res.write(": inspector events\n\n");
      streams.add(res);
      res.on("close", () => streams.delete(res));
    },
    close() {
      for (const res of streams) res.end();
      streams.clear();
    },
  };
}
