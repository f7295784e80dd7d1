import { describe, expect, it } from "vitest";
import { discardBody, type ResponseBodyReader, readEventStream } from "./body-reader.js";
import { createSseParser, type SseEvent } from "./sse-parser.js";

const enc = new TextEncoder();

/** A Web stream that hands out `chunks` and then stays open until cancelled (when `open`). */
function stream(chunks: string[], open = false) {
  let cancelled: unknown = "not cancelled";
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(enc.encode(c));
      if (!open) controller.close();
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  return { body, cancelled: () => cancelled };
}

function collect() {
  const events: SseEvent[] = [];
  return { events, parser: createSseParser({ onEvent: (e) => events.push(e) }) };
}

describe("readEventStream", () => {
  it("reads response.body into the parser when no reader is given, to its end", async () => {
    const { body } = stream(["data: a\n", "\ndata: é", "\n\n"]);
    const { events, parser } = collect();
    await readEventStream(new Response(body), parser, new AbortController().signal, undefined);
    expect(events.map((e) => e.data)).toEqual(["a", "é"]);
  });

  it("rejects with the abort reason and cancels a body that would never end", async () => {
    const { body, cancelled } = stream(["data: a\n\n"], true);
    const { events, parser } = collect();
    const controller = new AbortController();
    const read = readEventStream(new Response(body), parser, controller.signal, undefined);
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(read).rejects.toBe(reason);
    expect(cancelled()).toBe(reason);
    expect(events.map((e) => e.data)).toEqual(["a"]);
  });

  it("lets a reader take the responses it knows, and falls back to the Web stream when it declines", async () => {
    const taken: Response[] = [];
    const reader: ResponseBodyReader = {
      readEventStream(response, parser) {
        if (response.headers.get("x-mine") !== "1") return undefined;
        taken.push(response);
        parser.push("data: from the reader\n\n");
        return Promise.resolve();
      },
      discard: () => false,
    };
    const mine = collect();
    await readEventStream(
      new Response("data: unread\n\n", { headers: { "x-mine": "1" } }),
      mine.parser,
      new AbortController().signal,
      reader,
    );
    expect(mine.events.map((e) => e.data)).toEqual(["from the reader"]);
    const other = collect();
    await readEventStream(new Response("data: web\n\n"), other.parser, new AbortController().signal, reader);
    expect(other.events.map((e) => e.data)).toEqual(["web"]);
    expect(taken).toHaveLength(1);
  });

  it("ends at once on a response without a body", async () => {
    const { events, parser } = collect();
    await readEventStream(
      new Response(null, { status: 204 }),
      parser,
      new AbortController().signal,
      undefined,
    );
    expect(events).toEqual([]);
  });
});

describe("discardBody", () => {
  it("cancels response.body unless the reader released it", async () => {
    const a = stream([], true);
    discardBody(new Response(a.body), undefined);
    expect(a.cancelled()).toBeUndefined();

    const b = stream([], true);
    const released: Response[] = [];
    const response = new Response(b.body);
    discardBody(response, {
      readEventStream: () => undefined,
      discard: (r) => released.push(r) > 0,
    });
    expect(released).toEqual([response]);
    expect(b.cancelled()).toBe("not cancelled");
  });
});
