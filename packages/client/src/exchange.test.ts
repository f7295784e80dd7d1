import { JsonRpcError } from "@mcpkit/jsonrpc";
import { McpError } from "@mcpkit/protocol";
import { describe, expect, it } from "vitest";
import { sessionKit, unitExchange, useSessionKits } from "../test/unit-kit.js";
import type { ExchangeHooks } from "./exchange.js";

const kits = useSessionKits();

function exchangeFor(hooks: Partial<ExchangeHooks> = {}) {
  const calls: string[] = [];
  const exchange = unitExchange({
    reinitialize: async () => {
      calls.push("reinitialize");
    },
    refreshTools: async () => {
      calls.push("refreshTools");
    },
    ...hooks,
  });
  return { exchange, calls };
}

describe("Exchange", () => {
  it("shares the peer options of a call that sets nothing", () => {
    const { exchange } = exchangeFor();
    expect(exchange.peerOptions(undefined)).toBe(exchange.peerOptions(undefined));
    expect(exchange.peerOptions({ timeout: 5 })).toMatchObject({ timeout: 5, resetTimeoutOnProgress: true });
  });

  it("retries once with the version a modern server names when it dropped ours", async () => {
    let attempts = 0;
    const kit = await sessionKit({
      "tools/list": (params) => {
        attempts++;
        if (attempts === 1) throw new JsonRpcError(-32022, "Unsupported", { supported: ["2026-07-28"] });
        return { v: params._meta["io.modelcontextprotocol/protocolVersion"] };
      },
    });
    kits.push(kit);
    kit.session.speak("modern", "2099-01-01" as never);
    const { exchange } = exchangeFor();
    await expect(exchange.request(kit.session, "tools/list", {}, undefined)).resolves.toEqual({
      v: "2026-07-28",
    });
    expect(kit.session.version).toBe("2026-07-28");
  });

  it("lists the tools again and retries once on HeaderMismatch over HTTP, then gives up as McpError", async () => {
    const kit = await sessionKit(
      {
        "tools/call": () => {
          throw new JsonRpcError(-32020, "Header mismatch");
        },
      },
      { headers: true },
    );
    kits.push(kit);
    const { exchange, calls } = exchangeFor();
    const error = await exchange.request(kit.session, "tools/call", { name: "a" }, undefined).catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(calls).toEqual(["refreshTools"]);
    expect(kit.server.requests("tools/call")).toHaveLength(2);
  });

  it("tells onId the request's id before it leaves", async () => {
    const kit = await sessionKit({ x: () => ({}) });
    kits.push(kit);
    const { exchange } = exchangeFor();
    const ids: unknown[] = [];
    await exchange.request(kit.session, "x", {}, undefined, (id) => ids.push(id));
    expect(ids).toEqual([kit.server.requests("x")[0]!.id]);
  });
});
