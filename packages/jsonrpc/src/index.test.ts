import { describe, expect, it } from "vitest";

describe("the public surface", () => {
  it("the wire-trace entry exports exactly these names", async () => {
    expect(Object.keys(await import("./wire-trace.js")).sort()).toEqual(["formatWireEvent", "tapTransport"]);
  });

  it("exports exactly these names", async () => {
    expect(Object.keys(await import("./index.js")).sort()).toMatchInlineSnapshot(`
      [
        "ConnectionClosedError",
        "DEFAULT_MAX_FRAME_BYTES",
        "DEFAULT_REQUEST_TIMEOUT",
        "ErrorCode",
        "FramingError",
        "JsonRpcError",
        "TimeoutError",
        "TransportError",
        "classifyMessage",
        "classifyValue",
        "createInMemoryPair",
        "createLineFramer",
        "createPeer",
        "errorResponse",
        "isNotification",
        "isObject",
        "isRequest",
        "isResponse",
        "parseMessages",
        "randomId",
        "recoverIdFromHead",
        "serializeMessage",
        "sleep",
      ]
    `);
  });
});
