import { describe, expect, it } from "vitest";
import { fixedSession, type SessionKit, sessionKit, unitChain, useSessionKits } from "../test/unit-kit.js";
import { InvalidResultError } from "./errors.js";
import { OutputValidators } from "./internal/output-validator.js";
import { ListCache, type ListKind } from "./list-cache.js";
import type { ListOptions } from "./options.js";
import { ResponseCache } from "./response-cache.js";
import type { SessionSource } from "./session.js";

const kits = useSessionKits();

/** The lists of one kit's session (the client passes its connection; here the session is fixed). */
class KitLists extends ListCache {
  readonly #kit: SessionKit;
  constructor(kit: SessionKit, errors: unknown[]) {
    super(unitChain(), new OutputValidators(), (e) => errors.push(e), new ResponseCache(undefined));
    this.#kit = kit;
  }
  override list(kind: ListKind, call: ListOptions | undefined, sessions?: SessionSource): Promise<unknown[]> {
    return super.list(kind, call, sessions ?? fixedSession(this.#kit.session));
  }
}

function cacheFor(kit: SessionKit, errors: unknown[] = []) {
  return new KitLists(kit, errors);
}
const tool = (name: string, schema: object = { type: "object" }) => ({ name, inputSchema: schema });

describe("ListCache", () => {
  it("fetches every page and caches for the shortest page ttl", async () => {
    const kit = await sessionKit({
      "tools/list": (p) =>
        p.cursor === undefined
          ? { resultType: "complete", tools: [tool("a")], nextCursor: "2", ttlMs: 60_000 }
          : { resultType: "complete", tools: [tool("b")], ttlMs: 30_000 },
    });
    kits.push(kit);
    const cache = cacheFor(kit);
    expect((await cache.list("tools", undefined)).map((t: any) => t.name)).toEqual(["a", "b"]);
    await cache.list("tools", undefined);
    expect(kit.server.requests("tools/list")).toHaveLength(2);
    expect(cache.tool("b")?.name).toBe("b");
    await cache.list("tools", { refresh: true });
    expect(kit.server.requests("tools/list")).toHaveLength(4);
  });

  it("marks a list stale on list_changed and does not cache a fetch it overtook", async () => {
    let cache!: KitLists;
    const kit = await sessionKit({
      "prompts/list": () => {
        // The change arrives while this fetch is under way.
        cache.onNotification("notifications/prompts/list_changed");
        return { resultType: "complete", prompts: [], ttlMs: 60_000 };
      },
    });
    kits.push(kit);
    cache = cacheFor(kit);
    await cache.list("prompts", undefined);
    expect(cache.isStale("prompts")).toBe(true);
    await cache.list("prompts", undefined);
    expect(kit.server.requests("prompts/list")).toHaveLength(2);
  });

  it("refuses a repeated cursor", async () => {
    const kit = await sessionKit({
      "resources/list": () => ({ resultType: "complete", resources: [], nextCursor: "same" }),
    });
    kits.push(kit);
    await expect(cacheFor(kit).list("resources", undefined)).rejects.toThrow(InvalidResultError);
  });

  it("drops a tool with invalid x-mcp-header annotations over HTTP only", async () => {
    const bad = tool("bad", { type: "object", properties: { v: { type: "object", "x-mcp-header": "V" } } });
    const handlers = { "tools/list": () => ({ resultType: "complete", tools: [tool("good"), bad] }) };
    const http = await sessionKit(handlers, { headers: true });
    const stdio = await sessionKit(handlers);
    kits.push(http, stdio);
    const errors: unknown[] = [];
    expect((await cacheFor(http, errors).list("tools", undefined)).map((t: any) => t.name)).toEqual(["good"]);
    expect(errors).toHaveLength(1);
    expect((await cacheFor(stdio).list("tools", undefined)).map((t: any) => t.name)).toEqual(["good", "bad"]);
  });

  it("reports a tool whose name breaks the spec's rules once, and keeps it", async () => {
    const kit = await sessionKit({
      "tools/list": () => ({ resultType: "complete", tools: [tool("fine.name"), tool("has space")] }),
    });
    kits.push(kit);
    const errors: unknown[] = [];
    const cache = cacheFor(kit, errors);
    expect((await cache.list("tools", undefined)).map((t: any) => t.name)).toEqual([
      "fine.name",
      "has space",
    ]);
    expect((await cache.list("tools", { refresh: true })).map((t: any) => t.name)).toEqual([
      "fine.name",
      "has space",
    ]);
    expect(kit.server.requests("tools/list")).toHaveLength(2);
    expect(errors.map(String)).toEqual([
      'InvalidResultError: The server\'s tool "has space" breaks the character rule: a tool name may hold only A-Z a-z 0-9 _ - . and it holds " "',
    ]);
    expect(cache.tool("has space")?.name).toBe("has space");
  });
});
