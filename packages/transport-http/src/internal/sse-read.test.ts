import { describe, expect, it } from "vitest";
import { createSseParser, type SseEvent } from "../sse-parser.js";
import { LightSignal } from "./light-signal.js";
import { parseWholeSse, type SseCursor } from "./sse-read.js";

/** What the streaming path (readSseNode) leaves: the events, with the cursor at each, and the final cursor. */
function streamed(text: string, cuts: number[]) {
  const cursor: SseCursor = { lastEventId: "", retry: undefined };
  const events: Array<[SseEvent, string]> = [];
  const parser = createSseParser({
    onEvent(event) {
      cursor.lastEventId = event.id;
      events.push([event, cursor.lastEventId]);
    },
    onRetry(ms) {
      cursor.retry = ms;
    },
  });
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    parser.push(text.slice(at, cut));
    if (parser.lastEventId !== "") cursor.lastEventId = parser.lastEventId;
    at = cut;
  }
  return { events, cursor };
}

function whole(text: string) {
  const cursor: SseCursor = { lastEventId: "", retry: undefined };
  const events: Array<[SseEvent, string]> = [];
  parseWholeSse(text, cursor, (event) => events.push([event, cursor.lastEventId]));
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
  "id: 1\ndata: {}\n\nid: 2\nevent: message\ndata: {}\n\n\n\n",
];

describe("parseWholeSse (the fast path of a body that is already complete)", () => {
  it("gives the same events and cursor as the incremental parser, however the stream was cut", () => {
    for (const text of CASES) {
      const expected = streamed(text, []);
      expect(whole(text), JSON.stringify(text)).toEqual(expected);
      for (let cut = 1; cut < text.length; cut++) {
        expect(streamed(text, [cut]), JSON.stringify([text, cut])).toEqual(expected);
      }
    }
  });

  it("dispatches events in order with the id in force, and keeps the server's retry", () => {
    const { events, cursor } = whole("id: 7\nretry: 30\ndata: first\n\ndata: second\nid: 8\n\nid: 9\n");
    expect(events.map(([e, at]) => [e.data, e.id, at])).toEqual([
      ["first", "7", "7"],
      ["second", "8", "8"],
    ]);
    expect(cursor).toEqual({ lastEventId: "9", retry: 30 });
  });
});

describe("LightSignal.follow", () => {
  it("aborts with the followed signal's reason, once, and not after unfollow", () => {
    const outer = new AbortController();
    const light = new LightSignal();
    let calls = 0;
    light.addEventListener("abort", () => calls++);
    light.follow(outer.signal);
    const reason = new Error("stop");
    outer.abort(reason);
    expect(light.aborted).toBe(true);
    expect(light.reason).toBe(reason);
    expect(calls).toBe(1);

    const other = new AbortController();
    const second = new LightSignal();
    second.follow(other.signal);
    second.unfollow();
    other.abort(new Error("late"));
    expect(second.aborted).toBe(false);
  });

  it("takes an already aborted signal at once, and can follow another light signal", () => {
    const done = new AbortController();
    done.abort("why");
    const light = new LightSignal();
    light.follow(done.signal);
    expect(light.reason).toBe("why");

    const source = new LightSignal();
    const follower = new LightSignal();
    follower.follow(source as unknown as AbortSignal);
    source.abort("chain");
    expect(follower.reason).toBe("chain");
  });
});
