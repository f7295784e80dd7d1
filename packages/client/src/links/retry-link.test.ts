import { JsonRpcError } from "@mcpkit/jsonrpc";
import { McpError } from "@mcpkit/protocol";
import { describe, expect, it } from "vitest";
import { sessionKit, unitChain, useSessionKits } from "../../test/unit-kit.js";
import { Outbound } from "./link.js";

const kits = useSessionKits();

describe("retryLink", () => {
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
    await expect(unitChain().request(kit.session, "tools/list", {}, undefined)).resolves.toEqual({
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
    const calls: string[] = [];
    const op = new Outbound(kit.session, "tools/call", { name: "a" }, undefined);
    op.refreshTool = async () => {
      calls.push("refreshTools");
      return undefined;
    };
    const error = await unitChain()
      .send(op)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(calls).toEqual(["refreshTools"]);
    expect(kit.server.requests("tools/call")).toHaveLength(2);
  });

  it("re-initializes an expired legacy session once and sends again; a closing client retries nothing", async () => {
    const kit = await sessionKit({ "tools/list": () => ({ tools: [] }) }, { era: "legacy" });
    kits.push(kit);
    // The transport's SessionExpiredError is local (never on the wire): the peer below the chain throws it.
    const expired = Object.assign(new Error("gone"), { name: "SessionExpiredError" });
    const peer = kit.session.peer;
    const request = peer.request.bind(peer);
    let fail = 1;
    peer.request = ((...args: Parameters<typeof request>) =>
      fail-- > 0 ? Promise.reject(expired) : request(...args)) as typeof request;
    const reinits: unknown[] = [];
    const chain = unitChain({
      retry: {
        reinitialize: async (_s, cause) => {
          reinits.push(cause);
        },
      },
    });
    await expect(chain.request(kit.session, "tools/list", {}, undefined)).resolves.toEqual({ tools: [] });
    expect(reinits).toEqual([expired]);
    fail = 1;
    const closing = unitChain({ retry: { isOpen: () => false } });
    await expect(closing.request(kit.session, "tools/list", {}, undefined)).rejects.toBe(expired);
  });
});
