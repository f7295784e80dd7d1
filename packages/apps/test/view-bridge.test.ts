import { connectInProcess } from "@mcpkit/testing";
import { describe, expect, it } from "vitest";
import { type AppHostHooks, createViewBridge, loadAppResource, type ViewBridge } from "../src/host.js";
import { createFixtureServer, VIEW_HTML, VIEW_URI } from "./fixture-server.js";

type Out = Record<string, unknown>;

/** A bridge on a real in-process server, its outbox, and a way to wait for the answer to one id. */
async function bridgeKit(hooks: AppHostHooks = {}) {
  const client = await connectInProcess(createFixtureServer({ blob: true }));
  const tools = await client.listTools();
  const sent: Out[] = [];
  const waiters = new Map<unknown, (m: Out) => void>();
  const errors: string[] = [];
  const bridge: ViewBridge = createViewBridge({
    client,
    tools,
    post: (m) => {
      sent.push(m as Out);
      const id = (m as Out).id;
      waiters.get(id)?.(m as Out);
    },
    hostContext: { theme: "dark", displayMode: "inline", availableDisplayModes: ["inline", "fullscreen"] },
    hooks: { onProtocolError: (e) => errors.push(e.message), ...hooks },
  });
  const answer = (id: unknown, method: string, params: unknown = {}) =>
    new Promise<Out>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method}`)), 5_000);
      waiters.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      bridge.receive({ jsonrpc: "2.0", id, method, params });
    });
  const init = async () => {
    await answer(0, "ui/initialize", {
      protocolVersion: "2026-01-26",
      appInfo: { name: "v", version: "1" },
      appCapabilities: {},
    });
    bridge.receive({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} });
  };
  return { client, bridge, sent, answer, init, errors, [Symbol.asyncDispose]: () => client.close() };
}

describe("createViewBridge", () => {
  it("answers ui/initialize with host info, capabilities and context, and holds notifications until initialized", async () => {
    await using kit = await bridgeKit();
    kit.bridge.sendToolInput({ start: 1 });
    expect(kit.sent).toEqual([]);
    const init = await kit.answer(1, "ui/initialize", {
      protocolVersion: "2025-11-21",
      appInfo: { name: "v", version: "1" },
      appCapabilities: {},
    });
    expect(init.result).toMatchObject({
      protocolVersion: "2025-11-21",
      hostInfo: { name: "mcpkit-app-host" },
      hostCapabilities: { serverTools: {}, serverResources: {}, logging: {} },
      hostContext: { theme: "dark", displayMode: "inline" },
    });
    expect((init.result as Out).hostCapabilities).not.toHaveProperty("openLinks");
    kit.bridge.receive({ jsonrpc: "2.0", method: "ui/notifications/initialized" });
    expect(kit.sent.at(-1)).toEqual({
      jsonrpc: "2.0",
      method: "ui/notifications/tool-input",
      params: { arguments: { start: 1 } },
    });
  });

  it("passes tools/call of an app-callable tool to the server, and refuses model-only and unknown tools", async () => {
    await using kit = await bridgeKit();
    await kit.init();
    expect((await kit.answer(2, "tools/call", { name: "refresh" })).result).toEqual({
      content: [{ type: "text", text: "refreshed" }],
    });
    expect((await kit.answer(3, "tools/call", { name: "show" })).result).toMatchObject({
      structuredContent: { ok: true },
    });
    const modelOnly = await kit.answer(4, "tools/call", { name: "model_only" });
    expect(modelOnly.error).toEqual({
      code: -32000,
      message: 'Tool model_only is not callable by apps (its visibility has no "app")',
    });
    const other = await kit.answer(5, "tools/call", { name: "other_server__write_file" });
    expect(other.error).toMatchObject({
      code: -32602,
      message: "Tool other_server__write_file is not a tool of this server",
    });
  });

  it("lets a hook intercept a tool call", async () => {
    await using kit = await bridgeKit({
      onToolCall: async (call, next) =>
        call.name === "refresh" ? { content: [{ type: "text", text: "cached" }] } : next(),
    });
    await kit.init();
    expect((await kit.answer(2, "tools/call", { name: "refresh" })).result).toEqual({
      content: [{ type: "text", text: "cached" }],
    });
  });

  it("answers a malformed frame with -32600 and keeps working", async () => {
    await using kit = await bridgeKit();
    await kit.init();
    const before = kit.sent.length;
    for (const bad of [
      null,
      "hello",
      42,
      [],
      { jsonrpc: "1.0", id: 9, method: "ping" },
      { jsonrpc: "2.0", id: {}, method: "ping" },
      { jsonrpc: "2.0", id: 8, method: "ping", params: 5 },
    ])
      kit.bridge.receive(bad);
    const replies = kit.sent.slice(before);
    expect(replies).toHaveLength(7);
    for (const reply of replies) expect(reply.error).toMatchObject({ code: -32600 });
    expect(replies.map((r) => r.id)).toEqual([null, null, null, null, 9, null, 8]);
    expect(kit.errors).toHaveLength(7);
    expect((await kit.answer(10, "resources/read", { uri: VIEW_URI })).result).toMatchObject({
      contents: [{ uri: VIEW_URI }],
    });
    expect((await kit.answer(11, "no/such")).error).toEqual({
      code: -32601,
      message: "Method not found: no/such",
    });
    expect((await kit.answer(12, "tools/call", {})).error).toMatchObject({ code: -32602 });
  });

  it("refuses ui/open-link without a hook, refuses javascript: links, and hands others to the hook", async () => {
    const opened: string[] = [];
    await using bare = await bridgeKit();
    await bare.init();
    expect((await bare.answer(1, "ui/open-link", { url: "https://example.com" })).error).toMatchObject({
      code: -32000,
    });
    await using kit = await bridgeKit({ onOpenLink: ({ url }) => void opened.push(url) });
    await kit.init();
    expect((await kit.answer(2, "ui/open-link", { url: "javascript:alert(1)" })).error).toMatchObject({
      code: -32000,
    });
    expect((await kit.answer(3, "ui/open-link", { url: "https://example.com/x" })).result).toEqual({});
    expect(opened).toEqual(["https://example.com/x"]);
  });

  it("routes ui/message and ui/update-model-context to the hooks, and a hook's throw refuses", async () => {
    const messages: unknown[] = [];
    await using kit = await bridgeKit({
      onMessage: (m) => void messages.push(m),
      onUpdateModelContext: (c) => {
        if (c.structuredContent?.secret) throw new Error("Context update denied");
      },
    });
    await kit.init();
    await kit.answer(1, "ui/message", { role: "user", content: [{ type: "text", text: "hi" }] });
    expect(messages).toEqual([{ role: "user", content: [{ type: "text", text: "hi" }] }]);
    expect((await kit.answer(2, "ui/update-model-context", { structuredContent: { n: 1 } })).result).toEqual(
      {},
    );
    expect(kit.bridge.modelContext).toEqual({ structuredContent: { n: 1 } });
    expect(
      (await kit.answer(3, "ui/update-model-context", { structuredContent: { secret: 1 } })).error,
    ).toEqual({ code: -32000, message: "Context update denied" });
  });

  it("switches display mode only to a mode both sides offer, and tells the view", async () => {
    await using kit = await bridgeKit({ onRequestDisplayMode: ({ mode }) => mode });
    await kit.init();
    expect((await kit.answer(1, "ui/request-display-mode", { mode: "pip" })).result).toEqual({
      mode: "inline",
    });
    expect((await kit.answer(2, "ui/request-display-mode", { mode: "fullscreen" })).result).toEqual({
      mode: "fullscreen",
    });
    expect(kit.sent).toContainEqual({
      jsonrpc: "2.0",
      method: "ui/notifications/host-context-changed",
      params: { displayMode: "fullscreen" },
    });
    expect(kit.bridge.hostContext.displayMode).toBe("fullscreen");
  });

  it("hands valid size changes on and reports bad ones; logs and other notifications go to hooks", async () => {
    const logs: unknown[] = [];
    const others: string[] = [];
    await using kit = await bridgeKit({
      onLog: (l) => void logs.push(l),
      onNotification: (m) => void others.push(m),
    });
    await kit.init();
    kit.bridge.receive({ jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { height: -1 } });
    expect(kit.errors).toEqual(["size-changed with a width or height that is not a size"]);
    kit.bridge.receive({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "info", data: "x" },
    });
    kit.bridge.receive({ jsonrpc: "2.0", method: "notifications/custom", params: {} });
    expect(logs).toEqual([{ level: "info", data: "x" }]);
    expect(others).toEqual(["notifications/custom"]);
  });

  it("sends tool-input-partial, tool-cancelled and host-context-changed in the spec's shapes", async () => {
    await using kit = await bridgeKit();
    await kit.init();
    kit.bridge.sendToolInputPartial({ label: "hal" });
    kit.bridge.sendToolCancelled("user stopped it");
    kit.bridge.setHostContext({ theme: "light" });
    expect(kit.sent.slice(-3)).toEqual([
      {
        jsonrpc: "2.0",
        method: "ui/notifications/tool-input-partial",
        params: { arguments: { label: "hal" } },
      },
      { jsonrpc: "2.0", method: "ui/notifications/tool-cancelled", params: { reason: "user stopped it" } },
      { jsonrpc: "2.0", method: "ui/notifications/host-context-changed", params: { theme: "light" } },
    ]);
    expect(kit.bridge.hostContext.theme).toBe("light");
  });

  it("resolves teardown true when the view answers", async () => {
    await using kit = await bridgeKit();
    await kit.init();
    const answered = kit.bridge.teardown("done", 5_000);
    const request = kit.sent.at(-1) as { id: string; method: string };
    expect(request.method).toBe("ui/resource-teardown");
    kit.bridge.receive({ jsonrpc: "2.0", id: request.id, result: {} });
    expect(await answered).toBe(true);
  });

  it("sends ui/resource-teardown and waits a bounded time for the answer", async () => {
    await using kit = await bridgeKit();
    await kit.init();
    expect(await kit.bridge.teardown("done", 50)).toBe(false);
    expect(kit.sent.at(-1)).toMatchObject({ method: "ui/resource-teardown", params: { reason: "done" } });
    kit.bridge.sendToolResult({ content: [] });
    expect(kit.sent.at(-1)).toMatchObject({ method: "ui/resource-teardown" });
  });
});

describe("loadAppResource", () => {
  it("finds a tool's view, decodes a blob and reads _meta.ui", async () => {
    await using client = await connectInProcess(createFixtureServer({ blob: true }));
    const resource = await loadAppResource(client, "show");
    expect(resource.uri).toBe(VIEW_URI);
    expect(resource.html).toBe(VIEW_HTML);
    expect(resource.ui.csp).toEqual({ connectDomains: ["https://api.example.com"] });
    await expect(loadAppResource(client, "nope")).rejects.toThrow("No tool nope on this server");
  });
});
