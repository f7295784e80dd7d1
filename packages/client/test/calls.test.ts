import { JsonRpcError } from "@mcpkit/jsonrpc";
import { McpError } from "@mcpkit/protocol";
import { afterEach, describe, expect, it } from "vitest";
import {
  type Client,
  type ClientOptions,
  createClient,
  InputRequestError,
  InvalidResultError,
  OutputValidationError,
} from "../src/index.js";
import { type Handler, legacyHandlers, PV, type Responder, responder } from "./helpers.js";

const open: Array<Client | Responder> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

function modern(handlers: Record<string, Handler>): Record<string, Handler> {
  return {
    "server/discover": () => ({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {}, prompts: {}, resources: {}, completions: {} },
      ttlMs: 0,
      cacheScope: "public",
    }),
    ...handlers,
  };
}

async function connect(
  handlers: Record<string, Handler>,
  options: Partial<ClientOptions> = {},
  perRequestStream = false,
): Promise<{ c: Client; r: Responder }> {
  const r = await responder(handlers, { perRequestStream });
  open.push(r);
  const c = createClient({ name: "t", version: "1", ...options });
  open.push(c);
  await c.connect(r.transport);
  return { c, r };
}

const text = (t: string) => ({ type: "text", text: t });

describe("callTool", () => {
  it("joins text parts, JSON-encodes the others, keeps structuredContent verbatim", async () => {
    const image = { type: "image", data: "AAAA", mimeType: "image/png" };
    const { c } = await connect(
      modern({
        "tools/call": () => ({
          resultType: "complete",
          content: [text("one"), image, text("two")],
          structuredContent: { n: 1, list: [1, 2] },
        }),
      }),
    );
    const result = await c.callTool("x", { a: 1 });
    expect(result.content).toBe(`one\n${JSON.stringify(image)}\ntwo`);
    expect(result.structured).toEqual({ n: 1, list: [1, 2] });
    expect(result.isError).toBe(false);
    expect(result.parts).toHaveLength(3);
  });

  it("returns a tool failure as data, and throws McpError with code and data for a JSON-RPC error", async () => {
    const { c } = await connect(
      modern({
        "tools/call": (params) => {
          if (params.name === "bad") throw new JsonRpcError(-32602, "Unknown tool: bad", { tool: "bad" });
          return { resultType: "complete", content: [text("it broke")], isError: true };
        },
      }),
    );
    const failed = await c.callTool("fails");
    expect(failed).toMatchObject({ isError: true, content: "it broke" });
    const error = await c.callTool("bad").catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32602, data: { tool: "bad" } });
  });

  it("treats a missing resultType as complete and rejects an unknown one", async () => {
    const { c } = await connect(
      modern({
        "tools/call": (params) =>
          params.name === "old" ? { content: [text("ok")] } : { resultType: "weird", content: [] },
      }),
    );
    expect((await c.callTool("old")).content).toBe("ok");
    const error = await c.callTool("new").catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResultError);
    expect(error.message).toContain("weird");
  });

  it("sends no arguments key when none are given", async () => {
    const { c, r } = await connect(modern({ "tools/call": () => ({ resultType: "complete", content: [] }) }));
    await c.callTool("x");
    expect(r.requests("tools/call")[0]!.params).not.toHaveProperty("arguments");
  });
});

describe("output schema checks", () => {
  const tools = [
    {
      name: "typed",
      inputSchema: { type: "object" },
      outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    },
    { name: "free", inputSchema: { type: "object" } },
  ];

  it("checks structuredContent against the outputSchema of the last tools/list, never on isError", async () => {
    let answer: unknown = { resultType: "complete", content: [], structuredContent: { n: 1 } };
    const { c } = await connect(
      modern({
        "tools/list": () => ({ resultType: "complete", tools, ttlMs: 0 }),
        "tools/call": () => answer,
      }),
    );
    // Before any list there is nothing to check against.
    answer = { resultType: "complete", content: [], structuredContent: { n: "no" } };
    await expect(c.callTool("typed")).resolves.toBeDefined();
    await c.listTools();
    const error = await c.callTool("typed").catch((e) => e);
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(error.tool).toBe("typed");
    expect(error.message).toContain('"typed"');
    answer = { resultType: "complete", content: [], structuredContent: { n: "no" }, isError: true };
    await expect(c.callTool("typed")).resolves.toMatchObject({ isError: true });
    answer = { resultType: "complete", content: [] };
    await expect(c.callTool("typed")).rejects.toThrow(/no structuredContent/);
    answer = { resultType: "complete", content: [], structuredContent: 5 };
    await expect(c.callTool("free")).resolves.toMatchObject({ structured: 5 });
  });

  it("compiles each tool's schema once per list", async () => {
    const listed = structuredClone(tools);
    const { c } = await connect(
      modern({
        "tools/list": () => ({ resultType: "complete", tools: listed, ttlMs: 0 }),
        "tools/call": () => ({ resultType: "complete", content: [], structuredContent: { n: 1 } }),
      }),
    );
    const [typed] = await c.listTools();
    await c.callTool("typed");
    // Mutating the schema the client holds has no effect: the compiled validator is reused.
    (typed!.outputSchema as any).properties.n.type = "string";
    await expect(c.callTool("typed")).resolves.toMatchObject({ structured: { n: 1 } });
    // A new list brings a new schema, compiled afresh.
    (listed[0]!.outputSchema as any).properties.n.type = "string";
    await c.listTools({ refresh: true });
    await expect(c.callTool("typed")).rejects.toBeInstanceOf(OutputValidationError);
  });

  it("checks a schema that declares another dialect ($schema draft-07, as SDK v1 emits)", async () => {
    const { c } = await connect(
      modern({
        "tools/list": () => ({
          resultType: "complete",
          tools: [
            {
              name: "d7",
              inputSchema: { type: "object" },
              outputSchema: {
                $schema: "http://json-schema.org/draft-07/schema#",
                type: "object",
                properties: { t: { type: "number" } },
                required: ["t"],
              },
            },
          ],
        }),
        "tools/call": (params) => ({
          resultType: "complete",
          content: [],
          structuredContent: params.arguments.ok ? { t: 1 } : { t: "x" },
        }),
      }),
    );
    await c.listTools();
    await expect(c.callTool("d7", { ok: true })).resolves.toMatchObject({ structured: { t: 1 } });
    await expect(c.callTool("d7", { ok: false })).rejects.toBeInstanceOf(OutputValidationError);
  });

  it("never fetches a network $ref: such a schema is reported, not dereferenced", async () => {
    const { c } = await connect(
      modern({
        "tools/list": () => ({
          resultType: "complete",
          tools: [
            {
              name: "remote",
              inputSchema: { type: "object" },
              outputSchema: { $ref: "http://127.0.0.1:9/schema.json" },
            },
          ],
        }),
        "tools/call": () => ({ resultType: "complete", content: [], structuredContent: {} }),
      }),
    );
    await c.listTools();
    await expect(c.callTool("remote")).rejects.toThrow(/cannot be used/);
  });
});

describe("input_required rounds (modern)", () => {
  it("answers with the handlers and retries with a new id, the answers and the exact requestState", async () => {
    const state = '{"a": 1,  "b":[2]}';
    const { c, r } = await connect(
      modern({
        "tools/call": (params) => {
          if (!params.inputResponses) {
            return {
              resultType: "input_required",
              inputRequests: {
                who: {
                  method: "elicitation/create",
                  params: { message: "name?", requestedSchema: { type: "object", properties: {} } },
                },
                llm: { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } },
                dirs: { method: "roots/list" },
              },
              requestState: state,
            };
          }
          return { resultType: "complete", content: [text(JSON.stringify(params.inputResponses))] };
        },
      }),
      {
        handlers: {
          elicitation: (p, ctx) => ({ action: "accept", content: { name: `ok:${p.message}:${ctx.key}` } }),
          sampling: () => ({ role: "assistant", content: text("hi"), model: "m" }) as never,
          roots: () => [{ uri: "file:///tmp", name: "tmp" }],
        },
      },
    );
    const result = await c.callTool("ask", { q: 1 });
    expect(JSON.parse(result.content)).toEqual({
      who: { action: "accept", content: { name: "ok:name?:who" } },
      llm: { role: "assistant", content: text("hi"), model: "m" },
      dirs: { roots: [{ uri: "file:///tmp", name: "tmp" }] },
    });
    const [first, retry] = r.requests("tools/call");
    expect(retry!.id).not.toBe(first!.id);
    expect(retry!.params.requestState).toBe(state);
    expect(retry!.params.arguments).toEqual({ q: 1 });
    expect(retry!.params._meta[PV]).toBe("2026-07-28");
  });

  it("omits requestState when none was given and leaks nothing into other calls", async () => {
    const { c, r } = await connect(
      modern({
        "tools/call": (params) =>
          params.name === "ask" && !params.inputResponses
            ? {
                resultType: "input_required",
                inputRequests: {
                  k: {
                    method: "elicitation/create",
                    params: { message: "m", requestedSchema: { type: "object", properties: {} } },
                  },
                },
              }
            : { resultType: "complete", content: [] },
      }),
      { handlers: { elicitation: () => ({ action: "decline" }) } },
    );
    await c.callTool("ask");
    await c.callTool("other");
    const [, retry, other] = r.requests("tools/call");
    expect(retry!.params).not.toHaveProperty("requestState");
    expect(retry!.params.inputResponses).toEqual({ k: { action: "decline" } });
    expect(other!.params).not.toHaveProperty("inputResponses");
    expect(other!.params).not.toHaveProperty("requestState");
  });

  it("runs for a bounded number of rounds, then fails", async () => {
    const { c, r } = await connect(
      modern({ "prompts/get": () => ({ resultType: "input_required", requestState: "again" }) }),
      { maxInputRounds: 3 },
    );
    await expect(c.getPrompt("p")).rejects.toBeInstanceOf(InputRequestError);
    expect(r.requests("prompts/get")).toHaveLength(4);
  });

  it("names the capability when there is no handler for it", async () => {
    const { c } = await connect(
      modern({
        "resources/read": () => ({
          resultType: "input_required",
          inputRequests: { s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } } },
        }),
      }),
    );
    const error = await c.readResource("x://y").catch((e) => e);
    expect(error).toBeInstanceOf(InputRequestError);
    expect(error.capability).toBe("sampling");
    expect(error.message).toContain("handlers.sampling");
  });

  it("fills elicitation defaults when applyDefaults is declared", async () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", default: "Ann" },
        age: { type: "integer", default: 30 },
        given: { type: "string", default: "x" },
      },
    };
    const { c, r } = await connect(
      modern({
        "tools/call": (params) =>
          params.inputResponses
            ? { resultType: "complete", content: [] }
            : {
                resultType: "input_required",
                inputRequests: {
                  f: { method: "elicitation/create", params: { message: "m", requestedSchema: schema } },
                },
              },
      }),
      {
        capabilities: { elicitation: { form: { applyDefaults: true } } },
        handlers: { elicitation: () => ({ action: "accept", content: { given: "mine" } }) },
      },
    );
    await c.callTool("t");
    expect(r.requests("tools/call")[1]!.params.inputResponses.f.content).toEqual({
      name: "Ann",
      age: 30,
      given: "mine",
    });
  });

  it("never interprets resultType in the legacy era", async () => {
    const { c } = await connect({
      ...legacyHandlers(),
      "tools/call": () => ({ resultType: "input_required", content: [text("legacy")] }),
    });
    expect((await c.callTool("x")).content).toBe("legacy");
  });
});

describe("legacy server-to-client requests use the same handlers", () => {
  it("answers ping, elicitation, sampling and roots from inside a tool call", async () => {
    const { c } = await connect(
      {
        ...legacyHandlers(),
        "tools/call": async (_params, ctx) => {
          await ctx.request("ping", {});
          const elicited = await ctx.request("elicitation/create", {
            message: "name?",
            requestedSchema: { type: "object", properties: { n: { type: "string", default: "d" } } },
          });
          const sampled = await ctx.request("sampling/createMessage", { messages: [], maxTokens: 3 });
          const roots = await ctx.request("roots/list", {});
          return { content: [text(JSON.stringify({ elicited, sampled, roots }))] };
        },
      },
      {
        capabilities: { elicitation: { form: { applyDefaults: true } } },
        handlers: {
          elicitation: (_p, ctx) => ({ action: "accept", content: { era: ctx.era } }),
          sampling: () => ({ role: "assistant", content: text("s"), model: "m" }) as never,
          roots: () => ({ roots: [{ uri: "file:///r" }] }),
        },
      },
    );
    const result = JSON.parse((await c.callTool("x")).content);
    expect(result).toEqual({
      elicited: { action: "accept", content: { era: "legacy", n: "d" } },
      sampled: { role: "assistant", content: text("s"), model: "m" },
      roots: { roots: [{ uri: "file:///r" }] },
    });
  });

  it("answers -32601 for a capability it has no handler for", async () => {
    const { c } = await connect({
      ...legacyHandlers(),
      "tools/call": async (_params, ctx) => {
        const error = await ctx
          .request("sampling/createMessage", { messages: [], maxTokens: 1 })
          .catch((e: { code: number }) => e);
        return { content: [text(String((error as { code: number }).code))] };
      },
    });
    expect((await c.callTool("x")).content).toBe("-32601");
  });
});

describe("lists", () => {
  it("fetches every page and caches the whole list for the smallest ttlMs", async () => {
    let calls = 0;
    const { c, r } = await connect(
      modern({
        "prompts/list": (params) => {
          calls++;
          return params.cursor === undefined
            ? { resultType: "complete", prompts: [{ name: "a" }], nextCursor: "", ttlMs: 60_000 }
            : { resultType: "complete", prompts: [{ name: "b" }], ttlMs: 30_000 };
        },
      }),
    );
    expect((await c.listPrompts()).map((p) => p.name)).toEqual(["a", "b"]);
    // The empty string is a valid cursor.
    expect(r.requests("prompts/list")[1]!.params.cursor).toBe("");
    await c.listPrompts();
    expect(calls).toBe(2);
    await c.listPrompts({ refresh: true });
    expect(calls).toBe(4);
  });

  it("does not cache a result whose ttlMs is 0 or absent", async () => {
    let calls = 0;
    const { c } = await connect(
      modern({
        "resources/list": () => {
          calls++;
          return { resultType: "complete", resources: [] };
        },
      }),
    );
    await c.listResources();
    await c.listResources();
    expect(calls).toBe(2);
  });

  it("fails on a repeated cursor instead of looping", async () => {
    const { c } = await connect(
      modern({
        "resources/templates/list": () => ({
          resultType: "complete",
          resourceTemplates: [],
          nextCursor: "same",
        }),
      }),
    );
    await expect(c.listResourceTemplates()).rejects.toBeInstanceOf(InvalidResultError);
  });

  it("list_changed sets the stale flag and drops the cache until the next list", async () => {
    let version = 1;
    const { c, r } = await connect({
      ...legacyHandlers({ tools: { listChanged: true } }),
      "tools/list": () => ({ tools: [{ name: `v${version}`, inputSchema: { type: "object" } }] }),
    });
    expect((await c.listTools()).map((t) => t.name)).toEqual(["v1"]);
    version = 2;
    // Cached in the legacy era because the server promised list_changed.
    expect((await c.listTools()).map((t) => t.name)).toEqual(["v1"]);
    expect(c.toolsStale).toBe(false);
    const seen = new Promise<void>((resolve) => {
      const s = c.subscribe({ toolsListChanged: true });
      void s.next().then(() => {
        resolve();
        void s.close();
      });
    });
    await r.peer.notify("notifications/tools/list_changed");
    await seen;
    expect(c.toolsStale).toBe(true);
    expect((await c.listTools()).map((t) => t.name)).toEqual(["v2"]);
    expect(c.toolsStale).toBe(false);
  });
});

describe("the other requests", () => {
  it("complete, getPrompt, readResource, ping and setLogLevel in the modern era", async () => {
    const { c, r } = await connect(
      modern({
        "completion/complete": (params) => ({
          resultType: "complete",
          completion: { values: [`${params.argument.value}1`], total: 1 },
        }),
        "prompts/get": (params) => ({
          resultType: "complete",
          messages: [{ role: "user", content: text(params.arguments.x) }],
        }),
        "resources/read": (params) => ({
          resultType: "complete",
          contents: [{ uri: params.uri, text: "body" }],
        }),
        "tools/call": () => ({ resultType: "complete", content: [] }),
      }),
    );
    const completion = await c.complete(
      { type: "ref/prompt", name: "p" },
      { name: "x", value: "v" },
      { arguments: { y: "1" } },
    );
    expect(completion).toEqual({ values: ["v1"], total: 1 });
    expect(r.requests("completion/complete")[0]!.params.context).toEqual({ arguments: { y: "1" } });
    expect((await c.getPrompt("p", { x: "hello" })).messages[0]!.content).toEqual(text("hello"));
    expect((await c.readResource("a://b")).contents).toEqual([{ uri: "a://b", text: "body" }]);
    await c.ping();
    expect(r.requests("server/discover")).toHaveLength(2);
    await c.setLogLevel("warning");
    await c.callTool("x");
    expect(r.requests("tools/call")[0]!.params._meta["io.modelcontextprotocol/logLevel"]).toBe("warning");
    expect(r.requests("logging/setLevel")).toHaveLength(0);
    await expect(c.setLogLevel("loud" as never)).rejects.toBeInstanceOf(RangeError);
  });

  it("ping and logging/setLevel in the legacy era, with log messages delivered to onLog", async () => {
    const logs: unknown[] = [];
    const { c, r } = await connect(
      {
        ...legacyHandlers({ logging: {} }),
        ping: () => ({}),
        "logging/setLevel": () => ({}),
      },
      { onLog: (params) => logs.push(params) },
    );
    await c.ping();
    await c.setLogLevel("debug");
    expect(r.requests("logging/setLevel")[0]!.params).toEqual({ level: "debug" });
    await r.peer.notify("notifications/message", { level: "info", data: "hello" });
    await r.peer.notify("notifications/message", { level: "info", data: "again" });
    await c.ping();
    expect(logs).toEqual([
      { level: "info", data: "hello" },
      { level: "info", data: "again" },
    ]);
  });

  it("request() sends any method with the modern _meta", async () => {
    const { c, r } = await connect(
      modern({ "x/custom": (params) => ({ resultType: "complete", echo: params.v }) }),
    );
    await expect(c.request("x/custom", { v: 3 })).resolves.toMatchObject({ echo: 3 });
    expect(r.requests("x/custom")[0]!.params._meta[PV]).toBe("2026-07-28");
  });
});
