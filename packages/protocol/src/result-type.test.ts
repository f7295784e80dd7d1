import { describe, expect, it } from "vitest";
import { isReservedMetaKey, MetaKey, TASKS_EXTENSION_ID } from "./meta.js";
import { ResultType, readResultType } from "./result-type.js";

describe("ResultType", () => {
  it("has the core and tasks values", () => {
    expect(ResultType).toEqual({ Complete: "complete", InputRequired: "input_required", Task: "task" });
  });

  it("reads an absent resultType as complete and an unknown one as invalid", () => {
    expect(readResultType({ content: [] })).toBe("complete");
    expect(readResultType({ resultType: "input_required" })).toBe("input_required");
    expect(readResultType({ resultType: "task" })).toBe("task");
    expect(readResultType({ resultType: "later" })).toBeUndefined();
    expect(readResultType(null)).toBeUndefined();
  });
});

describe("MetaKey", () => {
  it("names the reserved keys", () => {
    expect(MetaKey.ProtocolVersion).toBe("io.modelcontextprotocol/protocolVersion");
    expect(MetaKey.ProgressToken).toBe("progressToken");
    expect(TASKS_EXTENSION_ID).toBe("io.modelcontextprotocol/tasks");
    for (const key of Object.values(MetaKey)) {
      expect(isReservedMetaKey(key)).toBe(key.startsWith("io.modelcontextprotocol/"));
    }
    expect(isReservedMetaKey("dev.mcp/x")).toBe(true);
    expect(isReservedMetaKey("com.example/x")).toBe(false);
  });
});
