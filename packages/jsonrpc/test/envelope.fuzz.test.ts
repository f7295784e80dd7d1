import fc from "fast-check";
import { expect, it } from "vitest";
import { fuzz, readCorpus } from "../../../scripts/fuzz-kit.mjs";
import { classifyMessage, classifyValue, parseMessages } from "../src/index.js";

// Fuzz target: the JSON-RPC envelope checks (every message a peer sends passes them). Any text, any JSON
// value, any near-envelope object: they never throw, and answer one of the known kinds.
const corpus = readCorpus(new URL("./fuzz-corpus/envelope", import.meta.url).pathname);
const KINDS = new Set(["request", "notification", "success", "error", "invalid"]);

const nearEnvelope = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant("2.0"), fc.jsonValue()),
    id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double(), fc.jsonValue()),
    method: fc.oneof(fc.string(), fc.jsonValue()),
    params: fc.jsonValue(),
    result: fc.jsonValue(),
    error: fc.oneof(
      fc.record({ code: fc.oneof(fc.integer(), fc.jsonValue()), message: fc.jsonValue() }),
      fc.jsonValue(),
    ),
  },
  { requiredKeys: [] },
);

/** Each a known kind; what is let through as a request, notification or response is well-formed. */
function checkKinds(messages: Array<{ kind: string; message?: any }>) {
  for (const m of messages) {
    expect(KINDS.has(m.kind)).toBe(true);
    if (m.kind === "invalid") continue;
    expect(m.message.jsonrpc).toBe("2.0");
    if (m.kind === "request" || m.kind === "notification") expect(typeof m.message.method).toBe("string");
    if (m.kind === "request") expect(["string", "number"]).toContain(typeof m.message.id);
    if (m.kind === "error") expect(Number.isInteger(m.message.error.code)).toBe(true);
  }
}

it("envelope: any text to parseMessages, any value to classifyMessage/classifyValue: a known kind, no throw", async () => {
  await fuzz(
    "jsonrpc-envelope",
    fc.oneof(
      fc.string({ unit: "binary", maxLength: 200 }).map((text) => ({ text })),
      fc.oneof(nearEnvelope, fc.array(nearEnvelope, { maxLength: 4 }), fc.jsonValue()).map((value) => ({
        text: JSON.stringify(value) ?? "null",
      })),
    ),
    ({ text }) => {
      checkKinds(parseMessages(text) as never);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return;
      }
      checkKinds([classifyMessage(value)] as never);
      checkKinds(classifyValue(value) as never);
    },
    corpus.map((text) => ({ text })),
  );
});
