import type { JsonRpcMessage } from "@mcpkit/jsonrpc";
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type Cassette,
  type CassetteEvent,
  type CassetteSide,
  eraOf,
} from "./cassette.js";
import { redactUrl, redactValue } from "./redact.js";

/** Options of a recording. */
export interface RecordOptions {
  /** Extra key names whose values are secrets (beside Authorization, cookies, tokens, keys, passwords). */
  redactKeys?: readonly string[];
  /** `false` keeps every value as sent (for a cassette that never leaves the machine). Default true. */
  redact?: boolean;
  /** Record each event's milliseconds since the start. Default false (a cassette then diffs cleanly). */
  timings?: boolean;
  /** What is being recorded (a command line or URL), kept in the cassette with secrets redacted. */
  target?: string;
}

/** Collects the events of one session and makes the {@link Cassette} of them. */
export interface CassetteRecorder {
  /**
   * Adds one message. The recorder keeps a redacted deep copy and never changes `message`, so the
   * original goes on the wire as it was. Values that are not a JSON object (a batch, junk) are skipped.
   */
  add(from: CassetteSide, message: unknown, elapsedMs?: number): void;
  /** The cassette of what was added so far (a new object each call). */
  cassette(): Cassette;
}

/** A new, empty {@link CassetteRecorder}. */
export function createCassetteRecorder(options: RecordOptions = {}): CassetteRecorder {
  const events: CassetteEvent[] = [];
  const redact = options.redact !== false;
  const keys = options.redactKeys ?? [];
  const recordedAt = new Date().toISOString();
  return {
    add(from, message, elapsedMs) {
      if (message === null || typeof message !== "object" || Array.isArray(message)) return;
      const copy = (redact ? redactValue(message, { keys }) : structuredClone(message)) as JsonRpcMessage;
      const event: CassetteEvent = { from, message: copy };
      if (options.timings && elapsedMs !== undefined) event.ms = Math.round(elapsedMs * 10) / 10;
      events.push(event);
    },
    cassette() {
      const { era, protocolVersion } = eraOf(events);
      const cassette: Cassette = {
        format: CASSETTE_FORMAT,
        version: CASSETTE_VERSION,
        era,
        ...(protocolVersion === undefined ? {} : { protocolVersion }),
        recordedAt,
        ...(options.target === undefined
          ? {}
          : { target: redact ? redactUrl(options.target) : options.target }),
        redacted: redact ? [...keys] : [],
        events: events.slice(),
      };
      return cassette;
    },
  };
}
