import { expect, it } from "vitest";
import * as api from "./index.js";

it("exports exactly the public surface", () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "CALL_TOOL",
      "ConfigError",
      "DEFAULT_PROFILE",
      "NameCollisionError",
      "SEARCH_TOOLS",
      "createAuditSink",
      "createFilePinStore",
      "createGateway",
      "loadGatewayConfig",
      "parseGatewayConfig",
      "toolFingerprint",
    ]
  `);
});
