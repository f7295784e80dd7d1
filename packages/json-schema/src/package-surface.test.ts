import { describe, expect, it } from "vitest";
import * as surface from "./index.js";

describe("@mcpkit/json-schema exports", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(surface).sort()).toEqual(["createJsonSchemaValidator", "formatJsonSchemaErrors"]);
  });
});
