import { describe, expect, it } from "vitest";
import { errorOf, legacyCall, makeCore, modernCall } from "../test/unit-kit.js";
import { getPrompt } from "./prompts.js";

describe("prompts/get", () => {
  const core = makeCore();
  core.registry.addPrompt(
    "greet",
    { description: "Say hi", arguments: [{ name: "who", required: true }] },
    (args: Record<string, string>) => `Hello ${args.who}`,
  );
  core.registry.addPrompt("broken", {}, () => {
    throw new Error("secret detail");
  });

  it("runs the handler with its arguments, in either era", async () => {
    const expected = {
      description: "Say hi",
      messages: [{ role: "user", content: { type: "text", text: "Hello Ada" } }],
    };
    const p = { name: "greet", arguments: { who: "Ada" } };
    expect(await getPrompt(core, modernCall("prompts/get"), p)).toEqual(expected);
    expect(await getPrompt(core, legacyCall("prompts/get"), p)).toEqual(expected);
  });

  it("says -32602 for missing arguments or an unknown prompt", async () => {
    const missing = await errorOf(() => getPrompt(core, modernCall("prompts/get"), { name: "greet" }));
    expect(missing.toJSON()).toEqual({ code: -32602, message: "Prompt greet is missing arguments: who" });
    const unknown = await errorOf(() => getPrompt(core, modernCall("prompts/get"), { name: "x" }));
    expect(unknown.message).toBe("Unknown prompt: x");
  });

  it("hides a handler's throw behind -32603 and logs it", async () => {
    const error = await errorOf(() => getPrompt(core, modernCall("prompts/get"), { name: "broken" }));
    expect(error.toJSON()).toEqual({ code: -32603, message: "Internal error" });
    expect(core.logged.at(-1)?.[0]).toBe("Prompt broken failed");
  });
});
