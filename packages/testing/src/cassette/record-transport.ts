import type { Transport } from "@mcpkit/jsonrpc";
import { tapTransport } from "@mcpkit/jsonrpc/wire-trace";
import type { Cassette, CassetteSide } from "./cassette.js";
import { createCassetteRecorder, type RecordOptions } from "./recorder.js";

/** Options of {@link recordTransport}. */
export interface RecordTransportOptions extends RecordOptions {
  /**
   * Which side of the session the wrapped transport belongs to. `client` (default): messages it sends
   * are the client's; `server`: it is a server's end, so what it sends is the server's.
   */
  side?: CassetteSide;
}

/** A transport that records both directions, and the cassette of what it saw. */
export interface RecordingTransport {
  /** Use this in place of the original: it passes every message through unchanged (same object). */
  transport: Transport;
  /** The cassette of the session so far, redacted unless `redact: false`. */
  cassette(): Cassette;
}

/**
 * Wraps `transport` so that every message sent and received is recorded, in order, into a
 * {@link Cassette}. The wrapper hands the very same message objects on (the recorder keeps a redacted
 * copy), so what crosses the wire is byte for byte what would have crossed it without the recording.
 * Transport-specific state (a session id) is read on the original.
 *
 * ```ts
 * const recording = recordTransport(spawnStdioTransport({ command: "my-server" }));
 * await client.connect(recording.transport);
 * … // use the client
 * await writeFile("session.json", JSON.stringify(recording.cassette(), null, 2));
 * ```
 */
export function recordTransport(
  transport: Transport,
  options: RecordTransportOptions = {},
): RecordingTransport {
  const recorder = createCassetteRecorder(options);
  const mine: CassetteSide = options.side ?? "client";
  const theirs: CassetteSide = mine === "client" ? "server" : "client";
  const tapped = tapTransport(transport, (event) =>
    recorder.add(event.direction === "out" ? mine : theirs, event.message, event.elapsed),
  );
  return { transport: tapped, cassette: () => recorder.cassette() };
}
