import {
  LEGACY_METHODS,
  McpError,
  type Method,
  type MethodInfo,
  MODERN_METHODS,
  requiredCapability,
  SKILLS_EXTENSION_ID,
  TASKS_EXTENSION_ID,
} from "@mcpkit/protocol";
import { checkCompleteParams, complete } from "./completion.js";
import type { Conn } from "./connection.js";
import type { CallInfo } from "./internal/context.js";
import { discover, ping } from "./lifecycle.js";
import { listen } from "./listen.js";
import { listPrompts, listResources, listResourceTemplates, listTools } from "./lists.js";
import { checkSetLevelParams, setLevel } from "./logging.js";
import { getPrompt } from "./prompts.js";
import { subscribeResource } from "./resource-updates.js";
import { readResource } from "./resources.js";
import type { ServerCore } from "./server-core.js";
import { getSkill, listSkills, readDirectory } from "./skills.js";
import { cancelTask, checkTaskParams, getTask, updateTask } from "./task-methods.js";
import { callTool } from "./tools.js";

type Params = Record<string, unknown>;

/**
 * Answers one request: the result (a modern one gets `resultType: "complete"` when it has none). `conn`
 * is the connection of a legacy session (the rows only that era has use it); a modern request has none.
 */
export type MethodHandler = (
  core: ServerCore,
  call: CallInfo,
  p: Params,
  conn: Conn | undefined,
) => Params | Promise<Params>;

/** Checks a request before its handler runs; throws the error the client gets (usually -32602). */
export type ParamsCheck = (p: Params, call: CallInfo) => void;

/**
 * What the server must have declared for a method to exist: a kind the registry ever held, the tasks
 * extension, the Skills extension or its `directoryRead` setting. Without it the method is -32601, as if
 * the server did not know it.
 */
export type Requirement =
  | "tools"
  | "prompts"
  | "resources"
  | "completions"
  | "tasks"
  | "skills"
  | "skillsDirectoryRead";

/** One row of the method table. */
export interface MethodRoute {
  readonly method: string;
  readonly handler: MethodHandler;
  /** The eras that have the method (from protocol's method tables, narrowed by what this server serves). */
  readonly legacy: boolean;
  readonly modern: boolean;
  /** The server capability the method needs (from protocol's method tables); `undefined`: none. */
  readonly requires: Requirement | undefined;
  readonly paramsCheck: ParamsCheck | undefined;
}

/** How this server answers a method; which eras have it and what it needs come from protocol's tables. */
export interface Served {
  handler: MethodHandler;
  paramsCheck?: ParamsCheck;
  /** Only these eras, when the server serves fewer than the protocol has. */
  only?: "legacy" | "modern";
}

/** Throws -32602 `<method> needs params.<key>` unless `params[key]` has the type. */
function needs(key: string, type: "string" | "object"): ParamsCheck {
  return (p, call) => {
    const value = p[key];
    const ok =
      type === "string"
        ? typeof value === "string"
        : typeof value === "object" && value !== null && !Array.isArray(value);
    if (!ok) throw McpError.invalidParams(`${call.method} needs params.${key}`);
  };
}

const needsName = needs("name", "string");
const needsUri = needs("uri", "string");

// `initialize` is not here: it makes the session the legacy rows run in (see dispatch).
const SERVED: Partial<Record<Method, Served>> = {
  ping: { handler: ping },
  "server/discover": { handler: discover },
  "logging/setLevel": { handler: setLevel, paramsCheck: checkSetLevelParams },
  "tools/list": { handler: listTools },
  "tools/call": { handler: callTool, paramsCheck: needsName },
  "prompts/list": { handler: listPrompts },
  "prompts/get": { handler: getPrompt, paramsCheck: needsName },
  "resources/list": { handler: listResources },
  "resources/templates/list": { handler: listResourceTemplates },
  "resources/read": { handler: readResource, paramsCheck: needsUri },
  "resources/subscribe": { handler: subscribeResource, paramsCheck: needsUri },
  "resources/unsubscribe": { handler: subscribeResource, paramsCheck: needsUri },
  "completion/complete": { handler: complete, paramsCheck: checkCompleteParams },
  "subscriptions/listen": { handler: listen, paramsCheck: needs("notifications", "object") },
  // The 2025-11-25 task methods (tasks sent both ways) are not served; the extension's are.
  "tasks/get": { handler: getTask, paramsCheck: checkTaskParams, only: "modern" },
  "tasks/update": { handler: updateTask, paramsCheck: checkTaskParams, only: "modern" },
  "tasks/cancel": { handler: cancelTask, paramsCheck: checkTaskParams, only: "modern" },
  // The Skills extension (2026-07-28 only, as the extension itself).
  "skills/list": { handler: listSkills, only: "modern" },
  "skills/get": { handler: getSkill, paramsCheck: needsUri, only: "modern" },
  "resources/directory/read": { handler: readDirectory, paramsCheck: needsUri, only: "modern" },
};

/** The requirement a protocol table row implies for a request the client sends. */
function requirementOf(info: MethodInfo): Requirement | undefined {
  const cap = requiredCapability(info, "client-to-server");
  if (cap === undefined) return undefined;
  const [head, next] = cap.path;
  switch (head) {
    case "tools":
    case "prompts":
    case "resources":
    case "completions":
      return head;
    // Always declared.
    case "logging":
      return undefined;
    case "extensions":
      if (next === TASKS_EXTENSION_ID) return "tasks";
      if (next === SKILLS_EXTENSION_ID)
        return cap.path[2] === "directoryRead" ? "skillsDirectoryRead" : "skills";
  }
  throw new Error(`The server does not know the capability ${cap.path.join(".")} of ${info.method}`);
}

/**
 * Builds the method table from protocol's `LEGACY_METHODS`/`MODERN_METHODS` and the handlers above.
 * @throws Error when a served method is in neither protocol table, is not a client request, or needs a
 * different capability in each era (a protocol change the server must look at).
 */
export function buildMethodTable(
  served: Partial<Record<string, Served>> = SERVED,
): ReadonlyMap<string, MethodRoute> {
  const table = new Map<string, MethodRoute>();
  for (const [method, row] of Object.entries(served)) {
    if (row === undefined) continue;
    const infos: MethodInfo[] = [];
    const legacyInfo = row.only === "modern" ? undefined : LEGACY_METHODS[method as Method];
    const modernInfo = row.only === "legacy" ? undefined : MODERN_METHODS[method as Method];
    if (legacyInfo) infos.push(legacyInfo);
    if (modernInfo) infos.push(modernInfo);
    if (infos.length === 0) throw new Error(`${method} is not a method of the protocol`);
    for (const info of infos) {
      if (info.kind !== "request" || info.direction === "server-to-client") {
        throw new Error(`${method} is not a request a client sends`);
      }
    }
    const requires = requirementOf(infos[0]!);
    if (infos.some((info) => requirementOf(info) !== requires)) {
      throw new Error(`${method} needs different capabilities in each era`);
    }
    table.set(method, {
      method,
      handler: row.handler,
      legacy: legacyInfo !== undefined,
      modern: modernInfo !== undefined,
      requires,
      paramsCheck: row.paramsCheck,
    });
  }
  return table;
}

/** The server's method table, built once when the module loads. */
export const METHOD_TABLE: ReadonlyMap<string, MethodRoute> = buildMethodTable();

/** Whether the server declares what `requires` names. */
export function declares(core: ServerCore, requires: Requirement): boolean {
  switch (requires) {
    case "tasks":
      return core.tasksEnabled;
    case "skills":
      return core.skills.declared;
    case "skillsDirectoryRead":
      return core.skills.declared && core.skills.directoryRead;
    default:
      return core.registry.declared[requires];
  }
}
