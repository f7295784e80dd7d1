import { describe, expect, it } from "vitest";
import { makeCore } from "../test/unit-kit.js";
import { serverCapabilities } from "./capabilities.js";

const TASKS = "io.modelcontextprotocol/tasks";

describe("serverCapabilities", () => {
  it("declares what the registry ever held, and the tasks extension in the modern era only", () => {
    const core = makeCore({ capabilities: { experimental: { x: {} }, tools: { extra: true } as never } });
    core.registry.addTool("t", { taskSupport: "optional" }, () => "");
    const remove = core.registry.addPrompt("p", {}, () => "");
    remove();
    expect(serverCapabilities(core, "modern")).toEqual({
      tools: { listChanged: true, extra: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
      extensions: { [TASKS]: {} },
      experimental: { x: {} },
    });
    expect(serverCapabilities(core, "legacy").extensions).toBeUndefined();
  });

  it("does not send the options' extensions before 2026-07-28", () => {
    const core = makeCore({ capabilities: { extensions: { "x/y": {} } } });
    expect(serverCapabilities(core, "legacy")).toEqual({ logging: {} });
    expect(serverCapabilities(core, "modern")).toEqual({ logging: {}, extensions: { "x/y": {} } });
  });
});
