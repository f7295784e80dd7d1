// The scan of every byte a server sent: nothing of its insides (a stack frame, a file path, a module
// path) may be on the wire. Each response body is passed through as it streams.
import { Transform } from "node:stream";

// A stack frame ("    at fn (file:1:2)"), an absolute path into the machine, a module location.
const LEAK =
  /\bat [\w$.<>[\] ]+ \(|\n\s+at \S|file:\/\/|node:internal|node_modules|\/(?:home|work|usr|tmp|root|opt)\/[\w.-]+|\.[cm]?[jt]s:\d+:\d+/;

/** Counts what leaked, with the first few samples. */
export function createWireScan() {
  const scan = {
    bytes: 0,
    leaks: 0,
    samples: [],
    /** Scans one piece of text (a chunk of a body or a line of stdout). */
    text(text) {
      scan.bytes += text.length;
      const m = LEAK.exec(text);
      if (!m) return;
      scan.leaks++;
      if (scan.samples.length < 5) scan.samples.push(text.slice(Math.max(0, m.index - 80), m.index + 120));
    },
    /** A fetch that scans every response body as it streams through. */
    fetch(inner = fetch) {
      return async (input, init) => {
        const response = await inner(input, init);
        if (response.body === null) return response;
        const decoder = new TextDecoder();
        const body = response.body.pipeThrough(
          new TransformStream({
            transform(chunk, controller) {
              scan.text(decoder.decode(chunk, { stream: true }));
              controller.enqueue(chunk);
            },
          }),
        );
        return new Response(body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      };
    },
    /** A pass-through of a child's stdout that scans it. */
    stream(readable) {
      const through = new Transform({
        transform(chunk, _encoding, callback) {
          scan.text(chunk.toString("utf8"));
          callback(null, chunk);
        },
      });
      return readable.pipe(through);
    },
  };
  return scan;
}
