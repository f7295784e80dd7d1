import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "../src/index.js";
import { connectClient, legacyClient } from "./helpers.js";

let server: Server;
afterEach(async () => {
  await server?.close();
});

function fixture(): Server {
  const s = createServer({ name: "legacy-test", version: "2.0.0", instructions: "legacy" });
  s.registerTool("echo", {}, (args) => JSON.stringify(args));
  s.registerResource("test://watched", { name: "watched" }, () => "w");
  s.registerPrompt("p", {}, () => "hi");
  return s;
}

describe("initialize", () => {
  it("[initialize:negotiation] a supported legacy version is echoed; an unknown one gets our latest legacy version", async () => {
    server = fixture();
    const a = await legacyClient(server, {}, {}, "2025-06-18");
    const b = await legacyClient(server, {}, {}, "1999-01-01");
    const c = await legacyClient(server, {}, {}, "2026-07-28");
    try {
      expect(a.init.protocolVersion).toBe("2025-06-18");
      expect(b.init.protocolVersion).toBe("2025-11-25");
      expect(c.init.protocolVersion).toBe("2025-11-25");
      expect(a.init.serverInfo).toEqual({ name: "legacy-test", version: "2.0.0" });
      expect(a.init.instructions).toBe("legacy");
      expect(a.init.capabilities).toEqual({
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        completions: {},
        logging: {},
      });
      expect(a.init.resultType).toBeUndefined();
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it("[initialize:twice] a second initialize on the same connection is -32600", async () => {
    server = fixture();
    const client = await legacyClient(server);
    try {
      const error = await client
        .request("initialize", {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "x", version: "1" },
        })
        .catch((e) => e);
      expect(error.code).toBe(-32600);
    } finally {
      await client.close();
    }
  });

  it("[ping] ping answers {} before and after initialize", async () => {
    server = fixture();
    const client = await connectClient(server);
    try {
      expect(await client.request("ping")).toEqual({});
      await client.request("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "x", version: "1" },
      });
      expect(await client.request("ping")).toEqual({});
    } finally {
      await client.close();
    }
  });

  it("[legacy:results] legacy results carry no resultType and no cache hints; server/discover does not exist", async () => {
    server = fixture();
    const client = await legacyClient(server);
    try {
      const list = await client.request("tools/list");
      expect(list).toEqual({ tools: [{ name: "echo", inputSchema: { type: "object", properties: {} } }] });
      const error = await client.request("server/discover").catch((e) => e);
      expect(error.code).toBe(-32601);
    } finally {
      await client.close();
    }
  });
});

describe("logging", () => {
  it("[logging:setLevel] every level is sent before setLevel, only the level and above after; a bad level is -32602", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("logs", {}, async (_a, ctx) => {
      await ctx.log("debug", "d");
      await ctx.log("warning", "w", "my-logger");
      return "ok";
    });
    const client = await legacyClient(server);
    try {
      await client.request("tools/call", { name: "logs", arguments: {} });
      expect(client.notifications.map((n) => n.params)).toEqual([
        { level: "debug", data: "d" },
        { level: "warning", data: "w", logger: "my-logger" },
      ]);
      client.notifications.length = 0;
      expect(await client.request("logging/setLevel", { level: "info" })).toEqual({});
      await client.request("tools/call", { name: "logs", arguments: {} });
      expect(client.notifications.map((n) => n.params.data)).toEqual(["w"]);
      expect((await client.request("logging/setLevel", { level: "loud" }).catch((e) => e)).code).toBe(-32602);
    } finally {
      await client.close();
    }
  });
});

describe("resources", () => {
  it("[resources:subscribe] subscribers get notifications/resources/updated until they unsubscribe", async () => {
    server = fixture();
    const client = await legacyClient(server);
    const other = await legacyClient(server);
    try {
      expect(await client.request("resources/subscribe", { uri: "test://watched" })).toEqual({});
      server.notifyResourceUpdated("test://watched");
      expect(await client.next("notifications/resources/updated")).toEqual({ uri: "test://watched" });
      expect(await client.request("resources/unsubscribe", { uri: "test://watched" })).toEqual({});
      server.notifyResourceUpdated("test://watched");
      // A round trip after the update proves nothing more was sent.
      await client.request("ping");
      await other.request("ping");
      expect(client.notifications).toEqual([]);
      expect(other.notifications).toEqual([]);
    } finally {
      await Promise.all([client.close(), other.close()]);
    }
  });

  it("[resources/read:not-found] an unknown resource is -32002 in the legacy era", async () => {
    server = fixture();
    const client = await legacyClient(server);
    try {
      const error = await client.request("resources/read", { uri: "test://missing" }).catch((e) => e);
      expect(error.code).toBe(-32002);
      expect(error.data).toEqual({ uri: "test://missing" });
    } finally {
      await client.close();
    }
  });
});

describe("list_changed", () => {
  it("[list-changed] registrations after initialize notify every initialized session, once per burst", async () => {
    server = fixture();
    const a = await legacyClient(server);
    const b = await legacyClient(server);
    try {
      const t1 = server.registerTool("t1", {}, () => "1");
      server.registerTool("t2", {}, () => "2");
      expect(await a.next("notifications/tools/list_changed")).toBeUndefined();
      expect(await b.next("notifications/tools/list_changed")).toBeUndefined();
      t1.remove();
      server.registerPrompt("p2", {}, () => "x");
      server.registerResource("test://new", { name: "new" }, () => "n");
      await a.next("notifications/tools/list_changed");
      await a.next("notifications/prompts/list_changed");
      await a.next("notifications/resources/list_changed");
      await a.request("ping");
      expect(a.notifications).toEqual([]);
      expect((await a.request("tools/list")).tools.map((t: { name: string }) => t.name)).toEqual([
        "echo",
        "t2",
      ]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe("server-to-client requests", () => {
  it("[legacy:elicit-sample-roots] ctx.elicit/sample/listRoots send real requests to the client", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("ask", {}, async (_a, ctx) => {
      const e = await ctx.elicit({
        message: "name?",
        requestedSchema: { type: "object", properties: { n: { type: "string" } } },
      });
      const s = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: "hi" } }],
        maxTokens: 5,
      });
      const r = await ctx.listRoots();
      return `${String(e.content?.n)} ${(s.content as { text: string }).text} ${r.roots.length}`;
    });
    const seen: string[] = [];
    const client = await legacyClient(
      server,
      { elicitation: {}, sampling: {}, roots: {} },
      {
        "elicitation/create": (params) => {
          seen.push(params.message);
          return { action: "accept", content: { n: "Ann" } };
        },
        "sampling/createMessage": () => ({
          role: "assistant",
          content: { type: "text", text: "hello" },
          model: "m",
        }),
        "roots/list": () => ({ roots: [{ uri: "file:///a" }, { uri: "file:///b" }] }),
      },
    );
    try {
      const result = await client.request("tools/call", { name: "ask", arguments: {} });
      expect(result).toEqual({ content: [{ type: "text", text: "Ann hello 2" }] });
      expect(seen).toEqual(["name?"]);
    } finally {
      await client.close();
    }
  });

  it("[legacy:missing-capability] asking a client that lacks the capability makes the tool fail, not the session", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("ask", {}, async (_a, ctx) => {
      await ctx.sample({ messages: [], maxTokens: 5 });
      return "never";
    });
    const client = await legacyClient(server, {});
    try {
      const result = await client.request("tools/call", { name: "ask", arguments: {} });
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toBe("The client does not support sampling");
    } finally {
      await client.close();
    }
  });

  it("[progress] ctx.progress sends notifications/progress when the request carried a progressToken", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("work", {}, async (_a, ctx) => {
      await ctx.progress(0, 100);
      await ctx.progress(50, 100, "half");
      await ctx.progress(100, 100);
      return "done";
    });
    const client = await legacyClient(server);
    try {
      const progress: unknown[] = [];
      await client.peer.request(
        "tools/call",
        { name: "work", arguments: {} },
        { onProgress: (p) => progress.push(p) },
      );
      expect(progress).toEqual([
        { progressToken: expect.any(Number), progress: 0, total: 100 },
        { progressToken: expect.any(Number), progress: 50, total: 100, message: "half" },
        { progressToken: expect.any(Number), progress: 100, total: 100 },
      ]);
      client.notifications.length = 0;
      await client.request("tools/call", { name: "work", arguments: {} });
      expect(client.notifications).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("[cancel] notifications/cancelled aborts the handler's signal and no answer is sent", async () => {
    server = createServer({ name: "s", version: "1" });
    let aborted!: () => void;
    const abortedP = new Promise<void>((r) => (aborted = r));
    let started!: () => void;
    const startedP = new Promise<void>((r) => (started = r));
    server.registerTool("slow", {}, (_a, ctx) => {
      started();
      return new Promise((_resolve, reject) => {
        ctx.signal.addEventListener("abort", () => {
          aborted();
          reject(ctx.signal.reason);
        });
      });
    });
    const client = await legacyClient(server);
    try {
      const controller = new AbortController();
      const call = client.peer
        .request("tools/call", { name: "slow", arguments: {} }, { signal: controller.signal })
        .catch((e) => e);
      await startedP;
      controller.abort(new Error("stop"));
      await abortedP;
      expect(((await call) as Error).message).toBe("stop");
      expect(await client.request("ping")).toEqual({});
    } finally {
      await client.close();
    }
  });
});
