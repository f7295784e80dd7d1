import { describe, expect, it } from "vitest";
import * as root from "../src/index.js";

describe("public surface", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(root).sort()).toMatchInlineSnapshot(`
      [
        "defaultAppDir",
        "diagnose",
        "parseCollection",
        "parseTarget",
        "runCollection",
        "startInspector",
      ]
    `);
  });
});
