import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer, type HandlerContext, type Server } from "../src/index.js";
import { modernCall } from "./helpers.js";

// Each way a `requestState` can be misused is refused with -32602 (Invalid params), the error the
// conformance scenario input-required-result-tampered-state expects, and the honest retry beside it
// still succeeds, so a refusal is the binding at work and not a broken round.
const INVALID_PARAMS = -32602;
const caps = { elicitation: {} };
const schema = { type: "object" as const, properties: {} };

const servers: Server[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server with two asking tools, a prompt and a resource that ask once. */
function asking(options: { requestStateKey?: string | string[]; requestStateTtlMs?: number } = {}): Server {
  const s = createServer({ name: "s", version: "1", ...options });
  servers.push(s);
  const ask = async (ctx: HandlerContext) =>
    (await ctx.elicit({ message: "ok?", requestedSchema: schema }, { key: "ok" })).action as string;
  s.registerTool("t", {}, (_a, ctx) => ask(ctx));
  s.registerTool("u", {}, (_a, ctx) => ask(ctx));
  s.registerPrompt("p", {}, async (_a, ctx) => ask(ctx));
  s.registerResource("test://r", { name: "r" }, async (_uri, ctx) => ask(ctx));
  return s;
}

const alice = { authInfo: { subject: "alice", clientId: "app", scopes: [], audience: [], claims: {} } };
const bob = { authInfo: { subject: "bob", clientId: "app", scopes: [], audience: [], claims: {} } };
type Info = typeof alice | Record<string, never>;

/** The first round of a tool call: its `requestState`. */
async function firstRound(server: Server, name = "t", args: object = { a: 1 }, info: Info = {}) {
  const { response } = await modernCall(
    server,
    "tools/call",
    { name, arguments: args },
    { capabilities: caps, info },
  );
  expect(response.result.resultType).toBe("input_required");
  return response.result.requestState as string;
}

/** The retry of a tool call with an answer and `state`; the JSON-RPC response. */
async function retry(server: Server, state: string, name = "t", args: object = { a: 1 }, info: Info = {}) {
  const { response } = await modernCall(
    server,
    "tools/call",
    { name, arguments: args, inputResponses: { ok: { action: "accept" } }, requestState: state },
    { capabilities: caps, info },
  );
  return response;
}

const accepted = (response: any) => expect(response.result?.content?.[0]?.text).toBe("accept");
const refused = (response: any) => {
  expect(response.error?.code).toBe(INVALID_PARAMS);
  // The reason is never told: one message for every refusal.
  expect(response.error?.message).toBe("Invalid requestState");
};

describe("requestState refusals (-32602, the conformance scenario's error)", () => {
  it("tampered: a suffix, a flipped MAC byte, an edited body, or no MAC at all", async () => {
    const server = asking({ requestStateKey: "k1" });
    const state = await firstRound(server);
    accepted(await retry(server, state));
    const [body, mac] = state.split(".") as [string, string];
    refused(await retry(server, `${state}-TAMPERED`));
    const flipped = `${mac.slice(0, -2)}${mac.at(-2) === "A" ? "B" : "A"}${mac.at(-1)}`;
    refused(await retry(server, `${body}.${flipped}`));
    const json = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    json.n = "u";
    refused(await retry(server, `${Buffer.from(JSON.stringify(json)).toString("base64url")}.${mac}`, "u"));
    refused(await retry(server, body));
  });

  it("replayed on another tool, other arguments, a prompt or a resource", async () => {
    const server = asking({ requestStateKey: "k1" });
    const state = await firstRound(server);
    refused(await retry(server, state, "u"));
    refused(await retry(server, state, "t", { a: 2 }));
    const prompt = await modernCall(
      server,
      "prompts/get",
      { name: "p", inputResponses: { ok: { action: "accept" } }, requestState: state },
      { capabilities: caps },
    );
    refused(prompt.response);
    const resource = await modernCall(
      server,
      "resources/read",
      { uri: "test://r", inputResponses: { ok: { action: "accept" } }, requestState: state },
      { capabilities: caps },
    );
    refused(resource.response);
    accepted(await retry(server, state));
  });

  it("replayed on a prompt of the same name with the same arguments: the method is bound", async () => {
    const server = asking({ requestStateKey: "k1" });
    const ask = async (ctx: HandlerContext) =>
      (await ctx.elicit({ message: "ok?", requestedSchema: schema }, { key: "ok" })).action as string;
    server.registerPrompt("t", {}, async (_a, ctx) => ask(ctx));
    const state = await firstRound(server, "t", {});
    const prompt = await modernCall(
      server,
      "prompts/get",
      { name: "t", arguments: {}, inputResponses: { ok: { action: "accept" } }, requestState: state },
      { capabilities: caps },
    );
    refused(prompt.response);
    // The prompt's own round opens with its own state, so the refusal above is the method binding.
    const own = await modernCall(server, "prompts/get", { name: "t", arguments: {} }, { capabilities: caps });
    expect(own.response.result.resultType).toBe("input_required");
    const reply = await modernCall(
      server,
      "prompts/get",
      {
        name: "t",
        arguments: {},
        inputResponses: { ok: { action: "accept" } },
        requestState: own.response.result.requestState,
      },
      { capabilities: caps },
    );
    expect(reply.response.error).toBeUndefined();
    accepted(await retry(server, state, "t", {}));
  });

  it("replayed by another client: another auth subject, or no authentication at all", async () => {
    const server = asking({ requestStateKey: "k1" });
    const aliceState = await firstRound(server, "t", { a: 1 }, alice);
    refused(await retry(server, aliceState, "t", { a: 1 }, bob));
    refused(await retry(server, aliceState, "t", { a: 1 }, {}));
    // Nor can an anonymous caller's state be taken up by a signed-in one.
    const anonymous = await firstRound(server);
    refused(await retry(server, anonymous, "t", { a: 1 }, alice));
    accepted(await retry(server, aliceState, "t", { a: 1 }, alice));
    accepted(await retry(server, anonymous));
  });

  it("the principal is bound, not spelled out: the token does not name the subject", async () => {
    const server = asking({ requestStateKey: "k1" });
    const state = await firstRound(server, "t", { a: 1 }, alice);
    const body = Buffer.from(state.split(".")[0]!, "base64url").toString("utf8");
    expect(body).not.toContain("alice");
  });

  it("expired: past requestStateTtlMs (fake clock)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const server = asking({ requestStateKey: "k1", requestStateTtlMs: 60_000 });
    const state = await firstRound(server);
    vi.setSystemTime(Date.now() + 59_000);
    accepted(await retry(server, state));
    vi.setSystemTime(Date.now() + 2_000);
    refused(await retry(server, state));
  });

  it("from another key: refused by a server whose ring lacks it, opened by one that still holds it", async () => {
    const k1 = asking({ requestStateKey: "k1" });
    const k2 = asking({ requestStateKey: "k2" });
    const rotated = asking({ requestStateKey: ["k2", "k1"] });
    const state = await firstRound(k1);
    refused(await retry(k2, state));
    accepted(await retry(rotated, state));
    // A server without a configured key makes its own at random: nobody else's state opens there.
    const random = asking();
    refused(await retry(random, state));
  });
});
