import { isObject } from "@mcpkit/jsonrpc";
import type { ProtocolEra } from "@mcpkit/protocol";
import type { ToolEntry } from "./internal/registry.js";
import { toWireToolResult } from "./internal/results.js";
import type { Checked } from "./internal/schema.js";
import type { ServerCore } from "./server-core.js";
import type { ToolReturn } from "./types.js";

type Params = Record<string, unknown>;

/**
 * A tool handler's return value as the wire `CallToolResult` of `era`, its `structuredContent` checked
 * against the tool's outputSchema. Synchronous unless the output check is not (an ajv fallback loading).
 * An `isError` result is not checked. Before 2026-07-28 a non-object `structuredContent` is dropped.
 * @throws McpError -32603 (detail to the logger) when the output does not match the outputSchema.
 */
export function finishToolResult(
  core: ServerCore,
  tool: ToolEntry,
  era: ProtocolEra,
  value: ToolReturn,
): Params | Promise<Params> {
  const result = toWireToolResult(value);
  if (result.isError !== true && tool.output) {
    if (!("structuredContent" in result)) {
      throw core.internalError(`Tool ${tool.name} has an outputSchema but returned no structuredContent`);
    }
    const checked = tool.output.check(result.structuredContent);
    if (checked instanceof Promise) {
      return checked.then((c) => checkedToolResult(core, tool, era, result, c));
    }
    return checkedToolResult(core, tool, era, result, checked);
  }
  return checkedToolResult(core, tool, era, result, undefined);
}

function checkedToolResult(
  core: ServerCore,
  tool: ToolEntry,
  era: ProtocolEra,
  result: Params,
  checked: Checked | undefined,
): Params {
  if (checked && !checked.ok) {
    throw core.internalError(
      `Tool ${tool.name} returned structuredContent that fails its outputSchema: ${checked.message}`,
    );
  }
  // Before 2026-07-28 structuredContent must be an object.
  if (era === "legacy" && result.structuredContent !== undefined && !isObject(result.structuredContent)) {
    delete result.structuredContent;
  }
  return result;
}
