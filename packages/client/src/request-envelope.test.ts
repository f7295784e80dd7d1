import { afterEach, describe, expect, it } from "vitest";
import { type SessionKit, sessionKit } from "../test/unit-kit.js";
import { RequestEnvelope } from "./request-envelope.js";

const kits: SessionKit[] = [];
afterEach(async () => {
  for (const k of kits.splice(0)) await k.close();
});
const INFO = { name: "t", version: "1" };
const PV = "io.modelcontextprotocol/protocolVersion";
const tool = {
  name: "regional",
  inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
};

describe("RequestEnvelope", () => {
  it("shares one frozen modern _meta until the version or the log level changes", async () => {
    const kit = await sessionKit({});
    kits.push(kit);
    const envelope = new RequestEnvelope(INFO);
    const first = envelope.sharedMeta(kit.session);
    expect(Object.isFrozen(first)).toBe(true);
    expect(envelope.sharedMeta(kit.session)).toBe(first);
    expect(envelope.params(kit.session, { a: 1 }, undefined)).toEqual({ a: 1, _meta: first });
    envelope.logLevel = "debug";
    const second = envelope.sharedMeta(kit.session);
    expect(second).not.toBe(first);
    expect(second).toMatchObject({ [PV]: "2026-07-28", "io.modelcontextprotocol/logLevel": "debug" });
  });

  it("merges the params' own _meta and the call's, the client's fields winning; legacy params pass as they are", async () => {
    const kit = await sessionKit({});
    kits.push(kit);
    const envelope = new RequestEnvelope(INFO);
    const params = { _meta: { mine: 1, [PV]: "x" } };
    const out = envelope.params(kit.session, params, { extra: 2 });
    expect(out!._meta).toMatchObject({ mine: 1, extra: 2, [PV]: "2026-07-28" });
    expect(params._meta[PV]).toBe("x");
    kit.session.speak("legacy", "2025-11-25");
    expect(envelope.params(kit.session, params, undefined)).toBe(params);
  });

  it("computes headers only for a transport that carries them: modern per request, legacy one shared object", async () => {
    const stdio = await sessionKit({});
    const http = await sessionKit({}, { headers: true });
    kits.push(stdio, http);
    const envelope = new RequestEnvelope(INFO);
    expect(envelope.headers(stdio.session, "tools/list", {})).toBeUndefined();
    expect(
      envelope.headers(
        http.session,
        "tools/call",
        { name: "regional", arguments: { region: "eu" } },
        tool as never,
      ),
    ).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "regional",
      "mcp-param-region": "eu",
    });
    http.session.speak("legacy", "2025-11-25");
    const legacy = envelope.headers(http.session, "ping", {});
    expect(legacy).toEqual({ "mcp-protocol-version": "2025-11-25" });
    expect(envelope.headers(http.session, "tools/list", {})).toBe(legacy);
  });
});
