import { afterEach, describe, expect, it, vi } from "vitest";
import { createStreamableHttpHandler } from "../src/index.js";
import { createTestApp } from "./app.js";
import { inProcessFetch, rawInitialize } from "./support.js";

afterEach(() => {
  vi.useRealTimers();
});

// 10,000 pass too (about a minute on a busy 2-core machine): MCPKIT_ABANDONED_SESSIONS=10000.
const COUNT = Number(process.env.MCPKIT_ABANDONED_SESSIONS ?? 2_000);

describe("abandoned sessions", () => {
  it("sessions opened and never closed all end by idle expiry; the app's connections close", async () => {
    vi.useFakeTimers();
    const app = createTestApp();
    // Idle expiry alone: these sessions never send notifications/initialized, so the handshake timeout
    // (30 s by default) would end them first.
    const handler = createStreamableHttpHandler({
      ...app.options,
      sessionIdleTimeout: 60_000,
      handshakeTimeout: Number.POSITIVE_INFINITY,
    });
    const doFetch = inProcessFetch(handler);
    for (let i = 0; i < COUNT; i += 200) {
      await Promise.all(Array.from({ length: 200 }, () => rawInitialize(doFetch, "http://localhost/mcp")));
    }
    expect(handler.sessionCount).toBe(COUNT);
    // Half of the period: nobody goes yet.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(handler.sessionCount).toBe(COUNT);
    await vi.advanceTimersByTimeAsync(30_001);
    expect(handler.sessionCount).toBe(0);
    // Every peer the app made for a session saw its transport close: nothing is kept for them.
    const open = app.log.peers.filter((p) => !p.isClosed);
    expect(open).toHaveLength(0);
    await handler.close();
  }, 120_000);
});
