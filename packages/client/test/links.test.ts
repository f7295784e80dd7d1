import { afterEach, describe, expect, it } from "vitest";
import { type Client, type ClientLink, createClient } from "../src/index.js";
import { discoverHandler, PV, type Responder, responder } from "./helpers.js";

const open: Array<Client | Responder> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

describe("createClient({ links })", () => {
  it("runs the app's links on every request after the handshake, each MRTR round on its own", async () => {
    const r = await responder({
      "server/discover": discoverHandler(),
      "tools/call": (params) =>
        params.requestState === "s"
          ? {
              resultType: "complete",
              content: [{ type: "text", text: `hi ${params.inputResponses.r.roots.length}` }],
            }
          : {
              resultType: "input_required",
              inputRequests: { r: { method: "roots/list", params: {} } },
              requestState: "s",
            },
    });
    open.push(r);
    const seen: string[] = [];
    const log: ClientLink = async (request, next) => {
      seen.push(`${request.era} ${request.method} ${request.params?.requestState ?? "-"}`);
      return next(request);
    };
    const c = createClient({ name: "t", version: "1", links: [log], handlers: { roots: () => [] } });
    open.push(c);
    await c.connect(r.transport);
    const result = await c.callTool("greet", { who: "x" });
    expect(result.content).toBe("hi 0");
    expect(seen).toEqual(["modern tools/call -", "modern tools/call s"]);
    // The handshake does not pass the links; the client's _meta is still on what they let through.
    expect(r.requests("tools/call").every((q) => q.params._meta[PV] === "2026-07-28")).toBe(true);
  });

  it("lets a link answer from its own cache: the second identical call never reaches the server", async () => {
    const r = await responder({
      "server/discover": discoverHandler(),
      "tools/call": () => ({ resultType: "complete", content: [{ type: "text", text: "fresh" }] }),
    });
    open.push(r);
    const cached = new Map<string, unknown>();
    const cache: ClientLink = async (request, next) => {
      if (request.method !== "tools/call") return next(request);
      const key = JSON.stringify(request.params);
      if (!cached.has(key)) cached.set(key, await next(request));
      return cached.get(key);
    };
    const c = createClient({ name: "t", version: "1", links: [cache] });
    open.push(c);
    await c.connect(r.transport);
    expect((await c.callTool("a", { n: 1 })).content).toBe("fresh");
    expect((await c.callTool("a", { n: 1 })).content).toBe("fresh");
    expect(r.requests("tools/call")).toHaveLength(1);
  });
});
