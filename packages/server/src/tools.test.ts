import { describe, expect, it } from "vitest";
import { errorOf, legacyCall, makeCore, modernCall } from "../test/unit-kit.js";
import { callTool, satisfies } from "./tools.js";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

describe("tools/call", () => {
  it("answers a handler's return as a tool result, in either era", async () => {
    const core = makeCore();
    core.registry.addTool(
      "echo",
      { inputSchema: { type: "object", properties: { s: { type: "string" } } } },
      (a) => a.s,
    );
    const p = { name: "echo", arguments: { s: "hi" } };
    expect(await callTool(core, modernCall("tools/call"), p)).toEqual({
      content: [{ type: "text", text: "hi" }],
    });
    expect(await callTool(core, legacyCall("tools/call"), p)).toEqual({
      content: [{ type: "text", text: "hi" }],
    });
  });

  it("turns bad arguments and the handler's throw into isError results, an unknown tool into -32602", async () => {
    const core = makeCore();
    core.registry.addTool("strict", { inputSchema: { type: "object", required: ["n"] } }, () => {
      throw new Error("handler failed");
    });
    const bad = await callTool(core, modernCall("tools/call"), { name: "strict", arguments: {} });
    expect(bad.isError).toBe(true);
    const thrown = await callTool(core, modernCall("tools/call"), { name: "strict", arguments: { n: 1 } });
    expect(thrown).toEqual({ content: [{ type: "text", text: "handler failed" }], isError: true });
    const unknown = await errorOf(() => callTool(core, modernCall("tools/call"), { name: "nope" }));
    expect(unknown.toJSON()).toEqual({ code: -32602, message: "Unknown tool: nope" });
  });

  it("a missing client capability is an error in the modern era and an isError result in a session", async () => {
    const core = makeCore();
    core.registry.addTool("s", { requiredClientCapabilities: { sampling: {} } }, () => "ok");
    const modern = await errorOf(() => callTool(core, modernCall("tools/call"), { name: "s" }));
    expect(modern.code).toBe(-32021);
    const legacy = await callTool(core, legacyCall("tools/call"), { name: "s" });
    expect(legacy.isError).toBe(true);
    expect(await callTool(core, modernCall("tools/call", { sampling: {} }), { name: "s" })).toMatchObject({
      content: [{ text: "ok" }],
    });
  });

  it("becomes a task when the client declares the extension and the tool allows it", async () => {
    const core = makeCore();
    core.registry.addTool("slow", { taskSupport: "optional" }, () => "later");
    const result = await callTool(core, modernCall("tools/call", TASKS), { name: "slow" });
    expect(result).toMatchObject({ resultType: "task", status: "working" });
    const plain = await callTool(core, modernCall("tools/call"), { name: "slow" });
    expect(plain).toEqual({ content: [{ type: "text", text: "later" }] });
  });

  it("satisfies() walks nested capability requirements", () => {
    expect(satisfies({ elicitation: { url: {} } }, { elicitation: { url: {} } })).toBe(true);
    expect(satisfies({ elicitation: {} }, { elicitation: { url: {} } })).toBe(false);
    expect(satisfies({}, {})).toBe(true);
  });
});
