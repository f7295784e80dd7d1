import { describe, expect, it } from "vitest";
import { sessionKit, unitChain, useSessionKits } from "../../test/unit-kit.js";
import { RequestEnvelope } from "../request-envelope.js";
import type { ClientLink } from "./link.js";
import { peerTiming } from "./timeout-link.js";

const kits = useSessionKits();

describe("a link of the app's own", () => {
  it("sees each request with its era, may change its params, and gets the result on the way back", async () => {
    const kit = await sessionKit({ echo: (params) => ({ got: params.value }) });
    kits.push(kit);
    const seen: string[] = [];
    const logging: ClientLink = async (request, next) => {
      seen.push(`${request.era} ${request.method} ${JSON.stringify(request.params)}`);
      const result = await next({ ...request, params: { ...request.params, value: 2 } });
      seen.push(`answer ${JSON.stringify(result)}`);
      return result;
    };
    const chain = unitChain({ links: [logging] });
    await expect(chain.request(kit.session, "echo", { value: 1 }, undefined)).resolves.toEqual({ got: 2 });
    expect(seen).toEqual(['modern echo {"value":1}', 'answer {"got":2}']);
    // The changed params still went out with the client's modern _meta.
    expect(kit.server.requests("echo")[0]!.params._meta["io.modelcontextprotocol/protocolVersion"]).toBe(
      "2026-07-28",
    );
  });

  it("may answer without sending (a cache), and runs outermost first", async () => {
    const kit = await sessionKit({ echo: () => ({ from: "server" }) });
    kits.push(kit);
    const order: string[] = [];
    const outer: ClientLink = (request, next) => {
      order.push("outer");
      return next(request);
    };
    const cache: ClientLink = async (request, next) => {
      order.push("cache");
      return request.method === "echo" ? { from: "cache" } : next(request);
    };
    const chain = unitChain({ links: [outer, cache] });
    await expect(chain.request(kit.session, "echo", {}, undefined)).resolves.toEqual({ from: "cache" });
    expect(order).toEqual(["outer", "cache"]);
    expect(kit.server.requests("echo")).toHaveLength(0);
  });

  it("can retry through next (an auth retry), with the wire error it would see", async () => {
    let calls = 0;
    const kit = await sessionKit({
      guarded: (params) => {
        calls++;
        if (params.token !== "fresh") throw new Error("unauthorized");
        return { ok: true };
      },
    });
    kits.push(kit);
    const retry: ClientLink = (request, next) =>
      next(request).catch(() => next({ ...request, params: { ...request.params, token: "fresh" } }));
    const chain = unitChain({ links: [retry] });
    await expect(chain.request(kit.session, "guarded", { token: "old" }, undefined)).resolves.toEqual({
      ok: true,
    });
    expect(calls).toBe(2);
  });
});

describe("the envelope and timeout links", () => {
  it("send the modern _meta and the headers computed once, for a transport that carries headers", async () => {
    const kit = await sessionKit({ "tools/list": () => ({ tools: [] }) }, { headers: true });
    kits.push(kit);
    const sends: unknown[] = [];
    const inner = kit.session.peer;
    const request = inner.request.bind(inner);
    inner.request = ((method: string, params: unknown, options: { headers?: unknown }) => {
      sends.push(options.headers);
      return request(method, params as never, options as never);
    }) as typeof inner.request;
    await unitChain({ envelope: new RequestEnvelope({ name: "t", version: "1" }) }).request(
      kit.session,
      "tools/list",
      {},
      undefined,
    );
    expect(sends).toEqual([{ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" }]);
  });

  it("give the call's timing over the session's, and share the timing of a call that sets nothing", () => {
    expect(peerTiming({ timeout: 5 }, { timeout: 9 })).toMatchObject({
      timeout: 5,
      resetTimeoutOnProgress: true,
    });
    expect(peerTiming(undefined, { timeout: 9, maxTotalTimeout: 20 })).toMatchObject({
      timeout: 9,
      maxTotalTimeout: 20,
    });
  });
});
