import { isObject } from "@mcpkit/jsonrpc";
import {
  type ProtocolEra,
  type ServerCapabilities,
  SKILLS_EXTENSION_ID,
  TASKS_EXTENSION_ID,
} from "@mcpkit/protocol";
import type { ServerCore } from "./server-core.js";

/**
 * The capabilities the server declares in `era`: what the registry ever held (a kind stays declared once
 * it was, so a client's view never shrinks), `logging`, the tasks and Skills extensions (modern only) when
 * enabled, then `options.capabilities` merged on top one level deep (its `extensions` are not sent before
 * 2026-07-28). A new object each call: callers may keep it.
 */
export function serverCapabilities(core: ServerCore, era: ProtocolEra): ServerCapabilities {
  const declared = core.registry.declared;
  const caps: ServerCapabilities = {};
  if (declared.tools) caps.tools = { listChanged: true };
  if (declared.prompts) caps.prompts = { listChanged: true };
  if (declared.resources) caps.resources = { subscribe: true, listChanged: true };
  if (declared.completions) caps.completions = {};
  caps.logging = {};
  if (era === "modern" && core.tasksEnabled) caps.extensions = { [TASKS_EXTENSION_ID]: {} };
  if (era === "modern" && core.skills.declared) {
    caps.extensions = Object.assign(caps.extensions ?? {}, {
      [SKILLS_EXTENSION_ID]: core.skills.capability(),
    });
  }
  const extra = core.options.capabilities;
  if (extra) {
    for (const [key, value] of Object.entries(extra)) {
      if (key === "extensions" && era === "legacy") continue;
      const current = (caps as Record<string, unknown>)[key];
      (caps as Record<string, unknown>)[key] =
        isObject(current) && isObject(value) ? { ...current, ...value } : value;
    }
  }
  return caps;
}
