import type { Transport } from "@mcpkit/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { discoverHandler, legacyHandlers, type Responder, responder } from "../test/helpers.js";
import { Negotiator } from "./negotiation.js";
import { type ClientOptions, resolveSettings } from "./options.js";
import { RequestEnvelope } from "./request-envelope.js";
import { type Session, startSession } from "./session.js";
import { normalizeSource } from "./transport-source.js";

const open: Array<Responder | Session> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

function negotiator(options: Partial<ClientOptions> = {}) {
  const settings = resolveSettings({ name: "t", version: "1", ...options });
  const lifetime = new AbortController();
  const n = new Negotiator(settings, {
    lifetime: lifetime.signal,
    envelope: new RequestEnvelope(settings.clientInfo),
    startSession: async (inner: Transport) => {
      const s = await startSession(inner, {
        settings,
        closing: () => false,
        onNotification: () => {},
      });
      open.push(s);
      return s;
    },
  });
  return { n, settings };
}

describe("Negotiator", () => {
  it("settles a modern server with server/discover", async () => {
    const r = await responder({ "server/discover": discoverHandler() });
    open.push(r);
    const s = await negotiator().n.establish(normalizeSource(r.transport), undefined);
    expect([s.era, s.version, s.serverInfo?.name]).toEqual(["modern", "2026-07-28", "fixture"]);
    expect(r.requests("initialize")).toHaveLength(0);
  });

  it("falls back to initialize when the probe is refused, and remembers the era per server key", async () => {
    const r = await responder(legacyHandlers());
    open.push(r);
    const cache = new Map();
    const { n } = negotiator({ eraCache: cache });
    n.recall("srv");
    const s = await n.establish(normalizeSource(r.transport), undefined);
    expect([s.era, s.version, s.instructions]).toEqual(["legacy", "2025-11-25", "be nice"]);
    n.remember(s);
    expect(cache.get("srv")).toEqual({ era: "legacy", protocolVersion: "2025-11-25" });
  });

  it("starts with the remembered era: a legacy server is not probed again", async () => {
    const r = await responder(legacyHandlers());
    open.push(r);
    const { n } = negotiator({
      eraCache: new Map([["srv", { era: "legacy", protocolVersion: "2025-06-18" }]]),
    });
    n.recall("srv");
    const s = await n.establish(normalizeSource(r.transport), undefined);
    expect(s.version).toBe("2025-06-18");
    expect(r.requests("server/discover")).toHaveLength(0);
  });
});
