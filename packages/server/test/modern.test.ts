import { example2026 as example } from "@mcpkit/test-kit/spec";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, isInputRequired, type Server } from "../src/index.js";
import { connectClient, meta, modernCall, V } from "./helpers.js";

let server: Server;
afterEach(async () => {
  await server?.close();
});

function basicServer(): Server {
  const s = createServer({ name: "modern-test", version: "1.0.0", instructions: "Use it well." });
  s.registerTool(
    "echo",
    {
      description: "Echo",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    },
    (args) => `echo: ${String(args.text)}`,
  );
  s.registerResource("test://a", { name: "a" }, () => "A");
  s.registerPrompt("p", { description: "P" }, () => "hello");
  return s;
}

describe("server/discover and per-request _meta", () => {
  it("[discover:result] lists versions of both eras, capabilities, instructions, cache hints and serverInfo", async () => {
    server = basicServer();
    const { response } = await modernCall(server, "server/discover");
    const r = response.result;
    expect(r.resultType).toBe("complete");
    expect(r.supportedVersions).toEqual([
      "2026-07-28",
      "2025-11-25",
      "2025-06-18",
      "2025-03-26",
      "2024-11-05",
    ]);
    expect(r.capabilities.tools).toEqual({ listChanged: true });
    expect(r.capabilities.prompts).toEqual({ listChanged: true });
    expect(r.capabilities.resources).toEqual({ subscribe: true, listChanged: true });
    expect(r.instructions).toBe("Use it well.");
    expect(r.ttlMs).toBe(0);
    expect(r.cacheScope).toBe("public");
    expect(r._meta["io.modelcontextprotocol/serverInfo"]).toEqual({ name: "modern-test", version: "1.0.0" });
  });

  it("[meta:missing-capabilities] a request without clientCapabilities is -32602, with no HTTP hint on the wire", async () => {
    server = basicServer();
    const client = await connectClient(server);
    try {
      const error = await client
        .request("server/discover", { _meta: { "io.modelcontextprotocol/protocolVersion": V } })
        .catch((e) => e);
      expect(error.code).toBe(-32602);
      // Over a pipe nothing HTTP reaches the wire; the HTTP handler answers this case 400 itself.
      expect(error.data).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it("[meta:missing-version] a request with neither _meta version nor a session is -32602 naming the key", async () => {
    server = basicServer();
    const client = await connectClient(server);
    try {
      const error = await client.request("tools/list", {}).catch((e) => e);
      expect(error.code).toBe(-32602);
      expect(error.message).toContain("io.modelcontextprotocol/protocolVersion");
    } finally {
      await client.close();
    }
  });

  it("[meta:unsupported-version] an unknown version is -32022 with { supported, requested }", async () => {
    server = basicServer();
    const client = await connectClient(server);
    try {
      const error = await client
        .request("server/discover", {
          _meta: { ...meta(), "io.modelcontextprotocol/protocolVersion": "v999" },
        })
        .catch((e) => e);
      expect(error.code).toBe(-32022);
      expect(error.data).toEqual({ supported: ["2026-07-28"], requested: "v999" });
    } finally {
      await client.close();
    }
  });

  it("[meta:removed-methods] legacy-only and unknown methods are -32601 in a modern request", async () => {
    server = basicServer();
    for (const method of [
      "initialize",
      "ping",
      "logging/setLevel",
      "resources/subscribe",
      "unknown/method",
    ]) {
      const { response } = await modernCall(server, method);
      expect(response.error?.code, method).toBe(-32601);
    }
  });

  it("[meta:log-level] notifications/message is sent only when _meta carries a logLevel, at or above it", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("logs", {}, async (_args, ctx) => {
      await ctx.log("debug", "d");
      await ctx.log("info", "i");
      await ctx.log("error", "e");
      return "ok";
    });
    const quiet = await modernCall(server, "tools/call", { name: "logs" });
    expect(quiet.sent.filter((m) => "method" in m)).toEqual([]);
    const loud = await modernCall(
      server,
      "tools/call",
      { name: "logs" },
      { metaExtra: { "io.modelcontextprotocol/logLevel": "info" } },
    );
    const logs = loud.sent.filter((m) => "method" in m && m.method === "notifications/message");
    expect(logs.map((m: any) => m.params.data)).toEqual(["i", "e"]);
  });

  it("[result:resultType] every result carries resultType and lists carry ttlMs and cacheScope", async () => {
    server = createServer({ name: "s", version: "1", cache: { ttlMs: 5000, scope: "private" } });
    server.registerTool("t", {}, () => "x");
    server.registerResource("test://r", { name: "r" }, () => "R");
    server.registerResourceTemplate("test://t/{id}", { name: "t" }, (_u, v) => `T${v.id}`);
    server.registerPrompt("p", {}, () => "x");
    for (const method of ["tools/list", "prompts/list", "resources/list", "resources/templates/list"]) {
      const { response } = await modernCall(server, method);
      expect(response.result).toMatchObject({ resultType: "complete", ttlMs: 5000, cacheScope: "private" });
    }
    const read = await modernCall(server, "resources/read", { uri: "test://t/7" });
    expect(read.response.result).toEqual({
      contents: [{ uri: "test://t/7", mimeType: "text/plain", text: "T7" }],
      ttlMs: 5000,
      cacheScope: "private",
      resultType: "complete",
    });
    const call = await modernCall(server, "tools/call", { name: "t" });
    expect(call.response.result).toEqual({ content: [{ type: "text", text: "x" }], resultType: "complete" });
  });

  it("[resources/read:not-found] an unknown resource is -32602 with data.uri in the modern era", async () => {
    server = basicServer();
    const { response } = await modernCall(server, "resources/read", { uri: "test://nope" });
    expect(response.error).toEqual({
      code: -32602,
      message: "Resource not found: test://nope",
      data: { uri: "test://nope" },
    });
  });
});

describe("MRTR (input_required)", () => {
  it("[mrtr:elicit] an elicitation ends the attempt; the retry with inputResponses completes", async () => {
    server = createServer({ name: "s", version: "1" });
    let runs = 0;
    server.registerTool("hello", {}, async (_args, ctx) => {
      runs++;
      const answer = await ctx.elicit(
        {
          message: "What is your name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
        { key: "user_name" },
      );
      return `Hello, ${String(answer.content?.name)}!`;
    });
    const caps = { elicitation: {} };
    const first = (
      await modernCall(server, "tools/call", { name: "hello", arguments: {} }, { capabilities: caps })
    ).response.result;
    expect(first.resultType).toBe("input_required");
    expect(first.inputRequests).toEqual({
      user_name: {
        method: "elicitation/create",
        params: {
          message: "What is your name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
      },
    });
    expect(typeof first.requestState).toBe("string");
    const second = (
      await modernCall(
        server,
        "tools/call",
        {
          name: "hello",
          arguments: {},
          inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
          requestState: first.requestState,
        },
        { capabilities: caps },
      )
    ).response.result;
    expect(second).toEqual({ content: [{ type: "text", text: "Hello, Alice!" }], resultType: "complete" });
    expect(runs).toBe(2);
  });

  it("[mrtr:spec-example] concurrent elicit + sample produce the spec's InputRequests and accept its InputResponses", async () => {
    const requests = example("InputRequests", "elicitation-and-sampling-input-requests.json");
    const responses = example("InputResponses", "elicitation-and-sampling-input-responses.json");
    server = createServer({ name: "s", version: "1" });
    server.registerTool("get_weather", {}, async (_args, ctx) => {
      const [login, capital] = await Promise.all([
        ctx.elicit(requests.github_login.params, { key: "github_login" }),
        ctx.sample(requests.capital_of_france.params, { key: "capital_of_france" }),
      ]);
      return `${String(login.content?.name)} / ${(capital.content as { text: string }).text}`;
    });
    const caps = { elicitation: {}, sampling: {} };
    const first = (
      await modernCall(server, "tools/call", { name: "get_weather", arguments: {} }, { capabilities: caps })
    ).response.result;
    expect(first.inputRequests).toEqual(requests);
    const second = (
      await modernCall(
        server,
        "tools/call",
        { name: "get_weather", arguments: {}, inputResponses: responses, requestState: first.requestState },
        { capabilities: caps },
      )
    ).response.result;
    expect(second.content[0].text).toBe("octocat / The capital of France is Paris.");
  });

  it("[mrtr:multi-round] answers of earlier rounds travel in requestState, which changes each round", async () => {
    server = createServer({ name: "s", version: "1" });
    const schema = { type: "object" as const, properties: { v: { type: "string" as const } } };
    server.registerTool("steps", {}, async (_args, ctx) => {
      const a = await ctx.elicit({ message: "1", requestedSchema: schema }, { key: "step1" });
      const b = await ctx.elicit({ message: "2", requestedSchema: schema }, { key: "step2" });
      return `${String(a.content?.v)}+${String(b.content?.v)}`;
    });
    const caps = { elicitation: {} };
    const call = (extra: Record<string, unknown>) =>
      modernCall(
        server,
        "tools/call",
        { name: "steps", arguments: {}, ...extra },
        { capabilities: caps },
      ).then((r) => r.response.result);
    const r1 = await call({});
    expect(Object.keys(r1.inputRequests)).toEqual(["step1"]);
    const r2 = await call({
      inputResponses: { step1: { action: "accept", content: { v: "x" } } },
      requestState: r1.requestState,
    });
    expect(Object.keys(r2.inputRequests)).toEqual(["step2"]);
    expect(r2.requestState).not.toBe(r1.requestState);
    const r3 = await call({
      inputResponses: { step2: { action: "accept", content: { v: "y" } } },
      requestState: r2.requestState,
    });
    expect(r3.content[0].text).toBe("x+y");
  });

  it("[mrtr:tampered-state] a tampered, foreign or replayed requestState is -32602", async () => {
    server = createServer({ name: "s", version: "1", requestStateKey: "k1" });
    const other = createServer({ name: "s", version: "1", requestStateKey: "k2" });
    const schema = { type: "object" as const, properties: {} };
    for (const s of [server, other]) {
      s.registerTool(
        "t",
        {},
        async (_a, ctx) => (await ctx.elicit({ message: "ok?", requestedSchema: schema })).action,
      );
      s.registerTool(
        "u",
        {},
        async (_a, ctx) => (await ctx.elicit({ message: "ok?", requestedSchema: schema })).action,
      );
    }
    try {
      const caps = { elicitation: {} };
      const r1 = (
        await modernCall(server, "tools/call", { name: "t", arguments: { a: 1 } }, { capabilities: caps })
      ).response.result;
      const retry = (name: string, state: string, args: Record<string, unknown> = { a: 1 }, s = server) =>
        modernCall(
          s,
          "tools/call",
          {
            name,
            arguments: args,
            inputResponses: { "elicit-0": { action: "accept" } },
            requestState: state,
          },
          { capabilities: caps },
        ).then((r) => r.response);
      expect((await retry("t", r1.requestState)).result.content[0].text).toBe("accept");
      expect((await retry("t", `${r1.requestState}-TAMPERED`)).error.code).toBe(-32602);
      expect((await retry("u", r1.requestState)).error.code).toBe(-32602);
      expect((await retry("t", r1.requestState, { a: 2 })).error.code).toBe(-32602);
      expect((await retry("t", r1.requestState, { a: 1 }, other)).error.code).toBe(-32602);
    } finally {
      await other.close();
    }
  });

  it("[mrtr:missing-response] wrong keys bring a fresh input_required; an invalid answer is -32602", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("t", {}, async (_a, ctx) => {
      const r = await ctx.elicit(
        { message: "n?", requestedSchema: { type: "object", properties: {} } },
        { key: "user_name" },
      );
      return r.action;
    });
    const caps = { elicitation: {} };
    const wrong = await modernCall(
      server,
      "tools/call",
      { name: "t", inputResponses: { wrong_key: { action: "accept" } } },
      { capabilities: caps },
    );
    expect(wrong.response.result.resultType).toBe("input_required");
    const extra = await modernCall(
      server,
      "tools/call",
      { name: "t", inputResponses: { user_name: { action: "decline" }, other: { x: 1 } } },
      { capabilities: caps },
    );
    expect(extra.response.result.content[0].text).toBe("decline");
    const invalid = await modernCall(
      server,
      "tools/call",
      { name: "t", inputResponses: { user_name: 12345 } },
      { capabilities: caps },
    );
    expect(invalid.response.error.code).toBe(-32602);
    const nullResponses = await modernCall(
      server,
      "tools/call",
      { name: "t", inputResponses: null },
      { capabilities: caps },
    );
    expect(nullResponses.response.error.code).toBe(-32602);
  });

  it("[mrtr:capability] input for an undeclared capability is -32021 with data.requiredCapabilities", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("needs_sampling", {}, async (_a, ctx) => {
      await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: "hi" } }],
        maxTokens: 10,
      });
      return "never";
    });
    const { response } = await modernCall(server, "tools/call", { name: "needs_sampling" });
    expect(response.error.code).toBe(-32021);
    expect(response.error.data).toEqual({ requiredCapabilities: { sampling: {} } });
  });

  it("[mrtr:state-values] ctx.state values survive the round trip and a handler that catches can rethrow the signal", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("t", {}, async (_a, ctx) => {
      if (ctx.state.get("nonce") === undefined) ctx.state.set("nonce", "n-1");
      try {
        await ctx.listRoots({ key: "client_roots" });
      } catch (error) {
        if (isInputRequired(error)) throw error;
        return "caught";
      }
      return `state ${String(ctx.state.get("nonce"))}`;
    });
    const caps = { roots: {} };
    const r1 = (await modernCall(server, "tools/call", { name: "t" }, { capabilities: caps })).response
      .result;
    expect(r1.inputRequests).toEqual({ client_roots: { method: "roots/list", params: {} } });
    const r2 = (
      await modernCall(
        server,
        "tools/call",
        {
          name: "t",
          requestState: r1.requestState,
          inputResponses: { client_roots: { roots: [{ uri: "file:///x" }] } },
        },
        { capabilities: caps },
      )
    ).response.result;
    expect(r2.content[0].text).toBe("state n-1");
  });

  it("[mrtr:prompts-and-resources] prompts/get and resources/read may ask for input; lists never do", async () => {
    server = createServer({ name: "s", version: "1" });
    const schema = { type: "object" as const, properties: { context: { type: "string" as const } } };
    server.registerPrompt("ask", {}, async (_a, ctx) => {
      const r = await ctx.elicit({ message: "context?", requestedSchema: schema }, { key: "user_context" });
      return `ctx=${String(r.content?.context)}`;
    });
    server.registerTool("t", {}, () => "x");
    server.registerResource("test://ask", { name: "ask" }, async (_u, ctx) => {
      const r = await ctx.elicit({ message: "context?", requestedSchema: schema });
      return `read ${String(r.content?.context)}`;
    });
    const caps = { elicitation: {} };
    const p1 = (await modernCall(server, "prompts/get", { name: "ask" }, { capabilities: caps })).response
      .result;
    expect(p1.resultType).toBe("input_required");
    const p2 = (
      await modernCall(
        server,
        "prompts/get",
        {
          name: "ask",
          requestState: p1.requestState,
          inputResponses: { user_context: { action: "accept", content: { context: "c" } } },
        },
        { capabilities: caps },
      )
    ).response.result;
    expect(p2.messages[0].content.text).toBe("ctx=c");
    const r1 = (await modernCall(server, "resources/read", { uri: "test://ask" }, { capabilities: caps }))
      .response.result;
    expect(r1.resultType).toBe("input_required");
    expect(r1.ttlMs).toBeUndefined();
    const r2 = (
      await modernCall(
        server,
        "resources/read",
        {
          uri: "test://ask",
          requestState: r1.requestState,
          inputResponses: { "elicit-0": { action: "accept", content: { context: "d" } } },
        },
        { capabilities: caps },
      )
    ).response.result;
    expect(r2.contents[0].text).toBe("read d");
    for (const method of ["tools/list", "prompts/list"]) {
      expect((await modernCall(server, method, {}, { capabilities: caps })).response.result.resultType).toBe(
        "complete",
      );
    }
  });
});

describe("subscriptions/listen", () => {
  it("[listen:ack-first] the acknowledgement comes first, every notification is tagged, the filter is honoured", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("t", {}, () => "x");
    server.registerPrompt("p", {}, () => "x");
    const client = await connectClient(server, { perRequestStream: true });
    try {
      const listen = client.peer.request(
        "subscriptions/listen",
        { _meta: meta(), notifications: { promptsListChanged: true, toolsListChanged: false } },
        { timeout: 10_000 },
      );
      const ack = await client.next("notifications/subscriptions/acknowledged");
      expect(client.notifications).toEqual([]);
      const id = ack._meta["io.modelcontextprotocol/subscriptionId"];
      expect(typeof id).toBe("number");
      expect(ack.notifications).toEqual({ promptsListChanged: true });
      server.registerTool("t2", {}, () => "y");
      server.registerPrompt("p2", {}, () => "y");
      const changed = await client.next("notifications/prompts/list_changed");
      expect(changed).toEqual({ _meta: { "io.modelcontextprotocol/subscriptionId": id } });
      expect(client.notifications.some((n) => n.method === "notifications/tools/list_changed")).toBe(false);
      server.notifyResourceUpdated("test://none");
      await server.close();
      expect(await listen).toEqual({
        resultType: "complete",
        _meta: { "io.modelcontextprotocol/subscriptionId": id },
      });
    } finally {
      await client.close();
    }
  });

  it("[listen:resource-updated] resourceSubscriptions receive notifications/resources/updated for their URIs only", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerResource("test://w", { name: "w" }, () => "w");
    const client = await connectClient(server, { perRequestStream: true });
    try {
      const controller = new AbortController();
      const listen = client.peer
        .request(
          "subscriptions/listen",
          { _meta: meta(), notifications: { resourceSubscriptions: ["test://w"] } },
          { signal: controller.signal },
        )
        .catch((e) => e);
      await client.next("notifications/subscriptions/acknowledged");
      server.notifyResourceUpdated("test://other");
      server.notifyResourceUpdated("test://w");
      const updated = await client.next("notifications/resources/updated");
      expect(updated.uri).toBe("test://w");
      controller.abort(new Error("done"));
      expect(((await listen) as Error).message).toBe("done");
      expect(client.notifications.filter((n) => n.method === "notifications/resources/updated")).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe("Mcp-Param headers", () => {
  function headerServer() {
    const s = createServer({ name: "s", version: "1" });
    s.registerTool(
      "regional",
      {
        inputSchema: {
          type: "object",
          properties: {
            region: { type: "string", "x-mcp-header": "Region" },
            count: { type: "integer", "x-mcp-header": "Count" },
          },
          required: ["region"],
        },
      },
      (args) => `${String(args.region)}:${String(args.count)}`,
    );
    return s;
  }
  const call = (s: Server, args: Record<string, unknown>, headers: Record<string, string>) =>
    modernCall(
      s,
      "tools/call",
      { name: "regional", arguments: args },
      { info: { headers: new Headers(headers) } },
    ).then((r) => r.response);

  it("[headers:x-mcp-header] matching headers pass, base64 values are decoded, integers compare numerically", async () => {
    server = headerServer();
    expect((await call(server, { region: "eu" }, { "mcp-param-region": "eu" })).result.content[0].text).toBe(
      "eu:undefined",
    );
    expect(
      (await call(server, { region: "Hello" }, { "Mcp-Param-Region": "=?base64?SGVsbG8=?=" })).result,
    ).toBeDefined();
    expect(
      (await call(server, { region: "=?base64?SGVsbG8=" }, { "Mcp-Param-Region": "=?base64?SGVsbG8=" }))
        .result,
    ).toBeDefined();
    expect(
      (await call(server, { region: "eu", count: 42 }, { "mcp-param-region": "eu", "mcp-param-count": "42" }))
        .result,
    ).toBeDefined();
  });

  it("[headers:mismatch] a missing, different, or badly encoded header is -32020", async () => {
    server = headerServer();
    for (const [args, headers] of [
      [{ region: "eu" }, {}],
      [{ region: "eu" }, { "mcp-param-region": "us" }],
      [{ region: "Hello" }, { "mcp-param-region": "=?base64?SGVsbG8?=" }],
      [{ region: "Hello" }, { "mcp-param-region": "=?base64?SGVs!!!bG8=?=" }],
      [
        { region: "eu", count: 42 },
        { "mcp-param-region": "eu", "mcp-param-count": "41" },
      ],
      [{ region: "eu" }, { "mcp-param-region": "eu", "mcp-param-count": "1" }],
    ] as const) {
      const response = await call(server, args, headers);
      expect(response.error?.code, JSON.stringify(headers)).toBe(-32020);
    }
  });

  it("[headers:stdio] without transport headers (stdio) nothing is checked", async () => {
    server = headerServer();
    const { response } = await modernCall(server, "tools/call", {
      name: "regional",
      arguments: { region: "eu" },
    });
    expect(response.result.content[0].text).toBe("eu:undefined");
  });
});
