import { createInMemoryPair, createPeer } from "@mcpkit/jsonrpc";
import { describe, expect, it } from "vitest";
import { makeCore } from "../test/unit-kit.js";
import { connect } from "./connection.js";
import { decodeSession, encodeSession, type SharedSession } from "./shared-session.js";

/** A shared session held in a plain object, standing in for the one a clustered HTTP transport carries. */
function fakeShared(fields: Record<string, string> = {}) {
  const listeners: Array<() => void> = [];
  const writes: Array<Record<string, string | null>> = [];
  const shared: SharedSession & { writes: typeof writes; change(f: Record<string, string>): void } = {
    fields,
    requestIdPrefix: "inst~",
    onChange: (fn) => listeners.push(fn),
    async write(changes) {
      writes.push(changes);
      for (const [k, v] of Object.entries(changes)) {
        if (v === null) delete fields[k];
        else fields[k] = v;
      }
    },
    writes,
    change(f) {
      for (const k of Object.keys(fields)) delete fields[k];
      Object.assign(fields, f);
      for (const fn of listeners) fn();
    },
  };
  return shared;
}

describe("shared legacy sessions", () => {
  it("encodes and decodes every part of a session", () => {
    const session = {
      protocolVersion: "2025-06-18",
      clientCapabilities: { roots: {} },
      clientInfo: { name: "c", version: "1" },
      initialized: true,
      logLevel: "warning" as const,
      subscriptions: new Set(["file:///a", "file:///b"]),
    };
    expect(decodeSession(encodeSession(session))).toEqual(session);
    expect(decodeSession({})).toBeUndefined();
    expect(decodeSession({ pv: "2025-06-18", caps: "{not json" })).toBeUndefined();
  });

  it("writes initialize, initialized, setLevel and (un)subscribe to the shared store before answering", async () => {
    const core = makeCore();
    const shared = fakeShared();
    const [client, server] = createInMemoryPair();
    await connect(core, server, { sharedSession: shared });
    const peer = createPeer(client);
    await peer.start();
    await peer.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { elicitation: {} },
      clientInfo: { name: "c", version: "1" },
    });
    expect(shared.fields).toMatchObject({ pv: "2025-06-18", caps: '{"elicitation":{}}' });
    await peer.notify("notifications/initialized");
    await peer.request("logging/setLevel", { level: "error" });
    expect(shared.fields).toMatchObject({ init: "1", log: "error" });
    core.registry.addResource("file:///r", { name: "r" }, () => "r");
    await peer.request("resources/subscribe", { uri: "file:///r" });
    expect(shared.fields["sub:file:///r"]).toBe("1");
    await peer.request("resources/unsubscribe", { uri: "file:///r" });
    expect(shared.fields["sub:file:///r"]).toBeUndefined();
    await peer.close();
  });

  it("restores a session another instance initialized, follows its changes, and prefixes request ids", async () => {
    const core = makeCore();
    const shared = fakeShared(
      encodeSession({
        protocolVersion: "2025-06-18",
        clientCapabilities: { elicitation: {} },
        clientInfo: undefined,
        initialized: true,
        logLevel: undefined,
        subscriptions: new Set(),
      }),
    );
    core.registry.addTool("ask", {}, async (_args, ctx) => {
      const answer = await ctx.elicit({ message: "?", requestedSchema: { type: "object", properties: {} } });
      return answer.action;
    });
    const [client, server] = createInMemoryPair();
    const connection = await connect(core, server, { sharedSession: shared });
    expect(connection.era).toBe("legacy");
    expect(connection.protocolVersion).toBe("2025-06-18");
    const peer = createPeer(client);
    const ids: unknown[] = [];
    peer.onRequest("elicitation/create", (_p, ctx) => {
      ids.push(ctx.id);
      return { action: "decline" };
    });
    await peer.start();
    // No initialize on this instance: the session is served as it stands.
    expect(await peer.request("tools/call", { name: "ask", arguments: {} })).toMatchObject({
      content: [{ type: "text", text: "decline" }],
    });
    expect(ids).toEqual(["inst~1"]);
    shared.change({ ...shared.fields, log: "critical", "sub:file:///x": "1" });
    const [conn] = core.connections;
    expect(conn!.session).toMatchObject({ logLevel: "critical", subscriptions: new Set(["file:///x"]) });
    await peer.close();
  });
});
