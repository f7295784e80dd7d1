import { describe, expect, it } from "vitest";
import { makeCore } from "../test/unit-kit.js";
import { ServerCore } from "./server-core.js";

describe("ServerCore", () => {
  it("validates the options and builds the server's info from them", () => {
    expect(() => new ServerCore({} as never)).toThrow("createServer needs { name, version }");
    expect(() => new ServerCore({ name: "a", version: "1", pageSize: 0 })).toThrow(RangeError);
    const core = makeCore({ title: "T", websiteUrl: "https://x.test" });
    expect(core.info).toEqual({ name: "unit", version: "1.0.0", title: "T", websiteUrl: "https://x.test" });
  });

  it("offers tasks when a tool declares taskSupport or the options configure them; the manager is made once", () => {
    const core = makeCore();
    expect(core.tasksEnabled).toBe(false);
    core.registry.addTool("t", { taskSupport: "optional" }, () => "");
    expect(core.tasksEnabled).toBe(true);
    expect(core.taskManager).toBe(core.taskManager);
  });

  it("internalError logs the detail and gives the client only -32603", () => {
    const core = makeCore();
    const error = core.internalError("it broke", new Error("secret"));
    expect(error.toJSON()).toEqual({ code: -32603, message: "Internal error" });
    expect(core.logged).toEqual([["it broke", new Error("secret")]]);
  });
});
