import { describe, expect, it } from "vitest";
import type { SseEvent } from "../sse-parser.js";
import { cursorParser, type SseCursor, settleCursor } from "./sse-read.js";

/**
 * What a reply reader leaves: the events, with the cursor at each, and the cursor once the read settled.
 * `cuts` splits the body as a stream would deliver it; none is a body read whole (one push).
 */
function read(text: string, cuts: number[] = []) {
  const cursor: SseCursor = { lastEventId: "", retry: undefined };
  const events: Array<[SseEvent, string]> = [];
  const parser = cursorParser(cursor, (event) => events.push([event, cursor.lastEventId]));
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    parser.push(text.slice(at, cut));
    at = cut;
  }
  parser.end();
  settleCursor(cursor, parser);
  return { events, cursor };
}

const CASES = [
  "",
  "data: {}\n\n",
  'event: message\ndata: {"a":1}\n\n',
  "id: p1\nretry: 250\ndata:\n\n",
  "id: p1\n\nid: p2\ndata: x\n\n",
  "data: a\r\ndata: b\r\n\r\n",
  "data: a\rdata: b\r\r",
  "data:no-space\ndata:  two spaces\n\n",
  ": a comment\n:\ndata: x\n\n",
  "id: a\0b\ndata: nul id ignored\n\n",
  "retry: 12x\nretry: 40\ndata: x\n\n",
  "event: other\ndata: typed\n\nevent: gone\n\ndata: after a block without data\n\n",
  "data: no blank line at the end\n",
  "data: unterminated",
  "id: only-an-id\n",
  "\uFEFFdata: after a BOM\n\n",
  "field-without-colon\ndata\n\n",
  "data: x\n\nid\ndata: reset id\n\n",
  "id: 1\ndata: a\n\nid\n",
  "id: 1\ndata: {}\n\nid: 2\nevent: message\ndata: {}\n\n\n\n",
];

describe("the cursor of a reply (last event id and retry, for resumption)", () => {
  it("is the same whether the body was read whole or cut anywhere", () => {
    for (const text of CASES) {
      const expected = read(text);
      for (let cut = 1; cut < text.length; cut++) {
        expect(read(text, [cut]), JSON.stringify([text, cut])).toEqual(expected);
      }
    }
  });

  it("follows each event's id, and ends at the last id seen even in a block that dispatched nothing", () => {
    const { events, cursor } = read("id: 7\nretry: 30\ndata: first\n\ndata: second\nid: 8\n\nid: 9\n");
    expect(events.map(([e, at]) => [e.data, e.id, at])).toEqual([
      ["first", "7", "7"],
      ["second", "8", "8"],
    ]);
    expect(cursor).toEqual({ lastEventId: "9", retry: 30 });
  });

  it("moves on a priming event (an id with empty data) and keeps the id an empty id: line cleared", () => {
    expect(read("id: s1\ndata:\n\n").cursor).toEqual({ lastEventId: "s1", retry: undefined });
    // `id` with no value empties the parser's id, but a resumption still starts after the last event seen.
    expect(read("id: 1\ndata: a\n\nid\n").cursor.lastEventId).toBe("1");
  });

  it("keeps what an earlier stream taught it when the next one names nothing", () => {
    const cursor: SseCursor = { lastEventId: "41", retry: 500 };
    const parser = cursorParser(cursor, () => {});
    parser.push(": keep-alive\n\n");
    parser.end();
    settleCursor(cursor, parser);
    expect(cursor).toEqual({ lastEventId: "41", retry: 500 });
  });
});
