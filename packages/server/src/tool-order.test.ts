import { describe, expect, it } from "vitest";
import { connectClient, meta } from "../test/helpers.js";
import { createServer } from "./index.js";

async function allNames(
  client: Awaited<ReturnType<typeof connectClient>>,
  modern: boolean,
): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const params: Record<string, unknown> = cursor === undefined ? {} : { cursor };
    if (modern) params._meta = meta();
    const page = await client.request("tools/list", params);
    names.push(...page.tools.map((t: { name: string }) => t.name));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return names;
}

describe("tools/list order", () => {
  it("is registration order, the same on every call and across pages, in both eras", async () => {
    const server = createServer({ name: "s", version: "1", pageSize: 3 });
    // Deliberately not alphabetical: the order is the registration's, never a sort.
    const order = ["zeta", "alpha", "mid.dle", "Beta", "a-1", "_x", "omega", "b2"];
    for (const name of order) server.registerTool(name, {}, () => "");
    const modern = await connectClient(server);
    expect(await allNames(modern, true)).toEqual(order);
    expect(await allNames(modern, true)).toEqual(order);
    await modern.close();
    const legacy = await connectClient(server);
    await legacy.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    });
    expect(await allNames(legacy, false)).toEqual(order);
    await legacy.close();
  });

  it("puts a tool registered again after removal at the end", async () => {
    const server = createServer({ name: "s", version: "1", pageSize: 2 });
    const regs = ["a", "b", "c"].map((name) => server.registerTool(name, {}, () => ""));
    regs[0]!.remove();
    server.registerTool("a", {}, () => "");
    const client = await connectClient(server);
    expect(await allNames(client, true)).toEqual(["b", "c", "a"]);
    await client.close();
  });
});

describe("tool names at registration", () => {
  it("refuses a name that breaks the spec's rules, naming the rule", () => {
    const server = createServer({ name: "s", version: "1" });
    expect(() => server.registerTool("", {}, () => "")).toThrow(/length rule/);
    expect(() => server.registerTool("x".repeat(129), {}, () => "")).toThrow(/length rule: .* it has 129/);
    expect(() => server.registerTool("user/update", {}, () => "")).toThrow(/character rule: .* holds "\/"/);
    expect(() => server.registerTool("a,b", {}, () => "")).toThrow(/character rule/);
    server.registerTool("x".repeat(128), {}, () => "");
    server.registerTool("admin.tools.list", {}, () => "");
  });
});
