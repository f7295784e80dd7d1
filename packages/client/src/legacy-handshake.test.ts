import { ConnectionClosedError, type Transport } from "@mcpkit/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { legacyHandlers, type Responder, responder } from "../test/helpers.js";
import { legacyReinitializer } from "./legacy-handshake.js";
import { Negotiator } from "./negotiation.js";
import { resolveSettings } from "./options.js";
import { RequestEnvelope } from "./request-envelope.js";
import { type Session, startSession } from "./session.js";
import { normalizeSource } from "./transport-source.js";

const open: Array<Responder | Session> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

describe("legacyReinitializer", () => {
  it("re-initializes a legacy session once for every caller, and says so when that fails", async () => {
    let inits = 0;
    const r = await responder({
      ...legacyHandlers(),
      initialize: (p: any) => {
        inits++;
        if (inits > 2) throw new Error("gone");
        return { protocolVersion: p.protocolVersion, capabilities: {} };
      },
    });
    open.push(r);
    const settings = resolveSettings({ name: "t", version: "1", versionNegotiation: "legacy" });
    const lifetime = new AbortController();
    const envelope = new RequestEnvelope(settings.clientInfo);
    const n = new Negotiator(settings, {
      lifetime: lifetime.signal,
      envelope,
      startSession: async (inner: Transport) => {
        const s = await startSession(inner, { settings, closing: () => false, onNotification: () => {} });
        open.push(s);
        return s;
      },
    });
    const s = await n.establish(normalizeSource(r.transport), undefined);
    const reinitialize = legacyReinitializer(settings, lifetime.signal, envelope);
    await Promise.all([reinitialize(s, new Error("expired")), reinitialize(s, new Error("expired"))]);
    expect(inits).toBe(2);
    expect(r.requests("initialize")[1]!.params.protocolVersion).toBe(s.version);
    await expect(reinitialize(s, new Error("expired"))).rejects.toThrow(ConnectionClosedError);
  });
});
