// createEverythingServer as the agent demo and the bench use it in-process: the counter's timer, its
// independence per instance, and the generated media files.
import { afterEach, describe, expect, it, vi } from "vitest";
import { makePng, makeWav, PNG_SIGNATURE } from "../src/media.js";
import { createEverythingServer, Uri } from "../src/server.js";
import { firstMatching, open } from "./harness.js";

describe("the counter's timer", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("ticks every tickMs, and stops when the server closes", async () => {
    vi.useFakeTimers();
    const server = createEverythingServer({ tickMs: 1_000 });
    vi.advanceTimersByTime(3_500);
    expect(server.counter).toBe(3);
    // close() stops the timer at once; the server's own close waits a timer turn, which the advance runs.
    const closing = server.close();
    vi.advanceTimersByTime(5_000);
    await closing;
    expect(server.counter).toBe(3);
  });

  it("is off with tickMs 0, and each server has its own counter", async () => {
    vi.useFakeTimers();
    const a = createEverythingServer({ tickMs: 0 });
    const b = createEverythingServer({ tickMs: 100 });
    vi.advanceTimersByTime(1_000);
    expect(a.counter).toBe(0);
    expect(b.counter).toBe(10);
    const closing = Promise.all([a.close(), b.close()]);
    vi.advanceTimersByTime(1);
    await closing;
  });

  it.each(["modern", "legacy"] as const)("sends timer updates to a %s subscriber", async (era) => {
    const conn = await open("memory", era, { tickMs: 20 });
    try {
      await using sub = conn.client.subscribe({ resourceSubscriptions: [Uri.counter] });
      await sub.acknowledged;
      const update = await firstMatching(sub, (n) => n.method === "notifications/resources/updated");
      expect(update.params.uri).toBe(Uri.counter);
      expect(conn.server?.counter).toBeGreaterThan(0);
    } finally {
      await conn.close();
    }
  });
});

describe("generated media", () => {
  it("makes a PNG with valid chunk CRCs and the stated size", () => {
    const png = makePng(8);
    expect([...png.subarray(0, 8)]).toEqual([...PNG_SIGNATURE]);
    const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
    expect(new TextDecoder().decode(png.subarray(12, 16))).toBe("IHDR");
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([8, 8]);
    // The IHDR CRC of an 8x8 8-bit RGB image is fixed by the PNG spec's CRC-32.
    expect(view.getUint32(29).toString(16)).toBe("4b6d29dc");
    expect(new TextDecoder().decode(png.subarray(png.length - 8, png.length - 4))).toBe("IEND");
    expect(view.getUint32(png.length - 4).toString(16)).toBe("ae426082");
  });

  it("makes a 16-bit mono PCM WAV of the stated length", () => {
    const wav = makeWav(440, 250, 8000);
    const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
    expect(new TextDecoder().decode(wav.subarray(0, 4))).toBe("RIFF");
    expect(view.getUint32(4, true)).toBe(wav.length - 8);
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(8000);
    expect(view.getUint16(34, true)).toBe(16);
    expect(view.getUint32(40, true)).toBe(2000 * 2);
    expect(wav.length).toBe(44 + 4000);
  });
});
