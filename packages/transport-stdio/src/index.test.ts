import { expect, it } from "vitest";
import * as api from "./index.js";

it("exports exactly the public surface", () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "McpCrashError",
      "createStdioServerTransport",
      "createStreamTransport",
      "defaultInheritedEnvNames",
      "serveStdio",
      "spawnStdioTransport",
    ]
  `);
});
