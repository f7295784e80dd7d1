import { afterEach, describe, expect, it } from "vitest";
import { type SessionKit, sessionKit } from "../test/unit-kit.js";
import { resolveSettings } from "./options.js";
import { declaredCapabilities } from "./session.js";

const kits: SessionKit[] = [];
afterEach(async () => {
  for (const k of kits.splice(0)) await k.close();
});

describe("declaredCapabilities", () => {
  const settings = resolveSettings({
    name: "t",
    version: "1",
    tasks: true,
    handlers: { elicitation: () => ({ action: "decline" }), roots: () => [] },
  });

  it("declares what the handlers imply, per era and version", () => {
    expect(declaredCapabilities(settings, "modern", "2026-07-28")).toEqual({
      elicitation: { form: {} },
      roots: {},
      extensions: { "io.modelcontextprotocol/tasks": {} },
    });
    expect(declaredCapabilities(settings, "legacy", "2025-06-18")).toEqual({ elicitation: {}, roots: {} });
  });
});

describe("Session", () => {
  it("speaks an era: version and declared capabilities change together", async () => {
    const kit = await sessionKit({}, { client: { handlers: { sampling: () => ({}) as never } } });
    kits.push(kit);
    kit.session.speak("legacy", "2025-03-26");
    expect(kit.session.era).toBe("legacy");
    expect(kit.session.version).toBe("2025-03-26");
    expect(kit.session.declared).toEqual({ sampling: {} });
  });

  it("answers ping, hands notifications on, and is dead with the reason once the transport ends", async () => {
    const kit = await sessionKit({});
    kits.push(kit);
    await expect(kit.server.peer.request("ping", {})).resolves.toEqual({});
    await kit.server.peer.notify("notifications/tools/list_changed", {});
    await expect.poll(() => kit.notifications.map(([m]) => m)).toEqual(["notifications/tools/list_changed"]);
    await kit.server.close();
    await expect.poll(() => kit.session.dead).toBe(true);
  });

  it("knows a transport that carries headers as an HTTP one", async () => {
    const plain = await sessionKit({});
    const http = await sessionKit({}, { headers: true });
    kits.push(plain, http);
    expect([plain.session.headers, plain.session.httpLike]).toEqual([false, false]);
    expect([http.session.headers, http.session.httpLike]).toEqual([true, true]);
  });
});
