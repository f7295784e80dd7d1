import { describe, expect, it } from "vitest";
import { createCassetteRecorder } from "./recorder.js";

describe("createCassetteRecorder", () => {
  it("keeps a redacted copy, leaves the message alone, skips what is not a message, and times on request", () => {
    const recorder = createCassetteRecorder({
      timings: true,
      redactKeys: ["account"],
      target: "https://host/mcp?token=abc",
    });
    const message = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "x", arguments: { account: "a-1" } },
    };
    recorder.add("client", message, 12.345);
    recorder.add("server", [{ jsonrpc: "2.0" }], 13);
    recorder.add("server", "junk", 14);
    const cassette = recorder.cassette();
    expect(message.params.arguments.account).toBe("a-1");
    expect(cassette).toMatchObject({
      format: "mcpkit-cassette",
      version: 1,
      era: "legacy",
      target: "https://host/mcp?token=%5BREDACTED%5D",
      redacted: ["account"],
      events: [{ from: "client", ms: 12.3, message: { params: { arguments: { account: "[REDACTED]" } } } }],
    });
    expect(cassette.events).toHaveLength(1);
  });

  it("keeps every value with redact: false, and no timings unless asked", () => {
    const recorder = createCassetteRecorder({ redact: false });
    recorder.add("client", { jsonrpc: "2.0", id: 1, method: "m", params: { token: "t-1" } }, 5);
    const [event] = recorder.cassette().events;
    expect(event).toEqual({
      from: "client",
      message: { jsonrpc: "2.0", id: 1, method: "m", params: { token: "t-1" } },
    });
  });
});
