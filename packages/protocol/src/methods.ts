import { TASKS_EXTENSION_ID } from "./meta.js";
import { SKILLS_EXTENSION_ID } from "./skills.js";
import type { LegacyProtocolVersion, ProtocolEra } from "./versions.js";
import { isLegacyVersion, isModernVersion } from "./versions.js";

/**
 * Every method and notification name of both eras and of the tasks and Skills extensions.
 * Which era has which is in {@link LEGACY_METHODS} and {@link MODERN_METHODS}.
 * @see SPEC.md Appendix A
 */
export const Method = {
  // Lifecycle and discovery.
  Initialize: "initialize",
  NotificationsInitialized: "notifications/initialized",
  Ping: "ping",
  ServerDiscover: "server/discover",
  // Server features.
  ToolsList: "tools/list",
  ToolsCall: "tools/call",
  PromptsList: "prompts/list",
  PromptsGet: "prompts/get",
  ResourcesList: "resources/list",
  ResourcesTemplatesList: "resources/templates/list",
  ResourcesRead: "resources/read",
  ResourcesSubscribe: "resources/subscribe",
  ResourcesUnsubscribe: "resources/unsubscribe",
  CompletionComplete: "completion/complete",
  LoggingSetLevel: "logging/setLevel",
  SubscriptionsListen: "subscriptions/listen",
  // Client features.
  SamplingCreateMessage: "sampling/createMessage",
  ElicitationCreate: "elicitation/create",
  RootsList: "roots/list",
  // Tasks: get and cancel in both designs; result and list in 2025-11-25; update in the extension.
  TasksGet: "tasks/get",
  TasksResult: "tasks/result",
  TasksList: "tasks/list",
  TasksCancel: "tasks/cancel",
  TasksUpdate: "tasks/update",
  // The Skills extension (2026-07-28).
  SkillsList: "skills/list",
  SkillsGet: "skills/get",
  ResourcesDirectoryRead: "resources/directory/read",
  // Notifications.
  NotificationsCancelled: "notifications/cancelled",
  NotificationsProgress: "notifications/progress",
  NotificationsMessage: "notifications/message",
  NotificationsResourcesUpdated: "notifications/resources/updated",
  NotificationsResourcesListChanged: "notifications/resources/list_changed",
  NotificationsToolsListChanged: "notifications/tools/list_changed",
  NotificationsPromptsListChanged: "notifications/prompts/list_changed",
  NotificationsRootsListChanged: "notifications/roots/list_changed",
  NotificationsElicitationComplete: "notifications/elicitation/complete",
  NotificationsSubscriptionsAcknowledged: "notifications/subscriptions/acknowledged",
  NotificationsTasksStatus: "notifications/tasks/status",
  NotificationsTasks: "notifications/tasks",
} as const;

/** A method or notification name known to mcpkit. */
export type Method = (typeof Method)[keyof typeof Method];

/**
 * Who sends a method. `both` for `ping`, `notifications/cancelled`, `notifications/progress` and the
 * 2025-11-25 tasks methods, which either side may send.
 */
export type MethodDirection = "client-to-server" | "server-to-client" | "both";

/**
 * What a method is: a JSON-RPC request, a notification, or (2026-07-28) an input request that exists only
 * embedded in an `input_required` result, never as a JSON-RPC message.
 */
export type MethodKind = "request" | "notification" | "input-request";

/**
 * A capability a method needs: its path in the capabilities object of `side`. `receiver` means the side
 * that receives the message (used for methods sent both ways, such as 2025-11-25 `tasks/get`).
 * A capability is present when the value at the path exists and is not `false`.
 */
export interface CapabilityRequirement {
  side: "server" | "client" | "receiver";
  path: readonly string[];
}

/** What the method tables say about one method in one era. */
export interface MethodInfo {
  method: Method;
  kind: MethodKind;
  direction: MethodDirection;
  /** The capability that must have been declared for the method to be sent; absent when none. */
  capability?: CapabilityRequirement;
  /** May answer with an `input_required` result (2026-07-28: `tools/call`, `prompts/get`, `resources/read`). */
  mrtr: boolean;
  /** Its complete result carries `ttlMs`/`cacheScope` (2026-07-28: discover, the four lists, read). */
  cacheable: boolean;
  /** The first version that has it (legacy table) or the modern version (modern table). */
  since: string;
  /** The extension it belongs to, if not core (e.g. `io.modelcontextprotocol/tasks`). */
  extension?: string;
}

type Entry = Omit<MethodInfo, "method" | "mrtr" | "cacheable" | "since"> &
  Partial<Pick<MethodInfo, "mrtr" | "cacheable" | "since">>;

function table<V extends string>(defaultSince: V, entries: Partial<Record<Method, Entry>>) {
  const out: Partial<Record<Method, MethodInfo>> = {};
  for (const [method, entry] of Object.entries(entries) as [Method, Entry][]) {
    out[method] = Object.freeze({
      method,
      mrtr: false,
      cacheable: false,
      since: defaultSince,
      ...entry,
    });
  }
  return Object.freeze(out);
}

const server = (...path: string[]): CapabilityRequirement => ({ side: "server", path });
const client = (...path: string[]): CapabilityRequirement => ({ side: "client", path });
const receiver = (...path: string[]): CapabilityRequirement => ({ side: "receiver", path });
const C2S = "client-to-server" as const;
const S2C = "server-to-client" as const;
const v20250618: LegacyProtocolVersion = "2025-06-18";
const v20251125: LegacyProtocolVersion = "2025-11-25";

// The notifications both eras have with the same facts (each table's default `since` applies). Listed
// once here; `notifications/progress` differs by direction and stays in each table.
const NOTIFICATIONS_OF_BOTH_ERAS: Partial<Record<Method, Entry>> = {
  "notifications/cancelled": { kind: "notification", direction: "both" },
  "notifications/message": { kind: "notification", direction: S2C, capability: server("logging") },
  "notifications/resources/updated": {
    kind: "notification",
    direction: S2C,
    capability: server("resources", "subscribe"),
  },
  "notifications/resources/list_changed": {
    kind: "notification",
    direction: S2C,
    capability: server("resources", "listChanged"),
  },
  "notifications/tools/list_changed": {
    kind: "notification",
    direction: S2C,
    capability: server("tools", "listChanged"),
  },
  "notifications/prompts/list_changed": {
    kind: "notification",
    direction: S2C,
    capability: server("prompts", "listChanged"),
  },
};

/**
 * The methods of the legacy era (2024-11-05 … 2025-11-25), each with the first version that has it.
 * `completion/complete` needs `completions`, a flag 2024-11-05 did not have (treat it as implied there).
 * @see SPEC.md §4.2, Appendix A
 */
export const LEGACY_METHODS: Readonly<Partial<Record<Method, MethodInfo>>> = table("2024-11-05", {
  initialize: { kind: "request", direction: C2S },
  "notifications/initialized": { kind: "notification", direction: C2S },
  ping: { kind: "request", direction: "both" },
  "tools/list": { kind: "request", direction: C2S, capability: server("tools") },
  "tools/call": { kind: "request", direction: C2S, capability: server("tools") },
  "prompts/list": { kind: "request", direction: C2S, capability: server("prompts") },
  "prompts/get": { kind: "request", direction: C2S, capability: server("prompts") },
  "resources/list": { kind: "request", direction: C2S, capability: server("resources") },
  "resources/templates/list": { kind: "request", direction: C2S, capability: server("resources") },
  "resources/read": { kind: "request", direction: C2S, capability: server("resources") },
  "resources/subscribe": { kind: "request", direction: C2S, capability: server("resources", "subscribe") },
  "resources/unsubscribe": { kind: "request", direction: C2S, capability: server("resources", "subscribe") },
  "completion/complete": { kind: "request", direction: C2S, capability: server("completions") },
  "logging/setLevel": { kind: "request", direction: C2S, capability: server("logging") },
  "sampling/createMessage": { kind: "request", direction: S2C, capability: client("sampling") },
  "elicitation/create": {
    kind: "request",
    direction: S2C,
    capability: client("elicitation"),
    since: v20250618,
  },
  "roots/list": { kind: "request", direction: S2C, capability: client("roots") },
  "tasks/get": { kind: "request", direction: "both", capability: receiver("tasks"), since: v20251125 },
  "tasks/result": { kind: "request", direction: "both", capability: receiver("tasks"), since: v20251125 },
  "tasks/list": {
    kind: "request",
    direction: "both",
    capability: receiver("tasks", "list"),
    since: v20251125,
  },
  "tasks/cancel": {
    kind: "request",
    direction: "both",
    capability: receiver("tasks", "cancel"),
    since: v20251125,
  },
  ...NOTIFICATIONS_OF_BOTH_ERAS,
  "notifications/progress": { kind: "notification", direction: "both" },
  "notifications/roots/list_changed": {
    kind: "notification",
    direction: C2S,
    capability: client("roots", "listChanged"),
  },
  "notifications/elicitation/complete": {
    kind: "notification",
    direction: S2C,
    capability: client("elicitation", "url"),
    since: v20251125,
  },
  "notifications/tasks/status": { kind: "notification", direction: "both", since: v20251125 },
});

const tasksExtension = server("extensions", TASKS_EXTENSION_ID);
const skillsExtension = server("extensions", SKILLS_EXTENSION_ID);

/**
 * The methods of the modern era (2026-07-28), including the tasks and Skills extensions' (marked
 * `extension`; `resources/directory/read` needs the Skills setting `directoryRead: true`).
 * Only clients send requests; `elicitation/create`, `sampling/createMessage` and `roots/list` exist only
 * as input requests embedded in `input_required` results. `notifications/cancelled` goes both ways on
 * stdio: from the client to cancel, from the server to end a `subscriptions/listen` stream.
 * @see SPEC.md §3.5, §3.13
 */
export const MODERN_METHODS: Readonly<Partial<Record<Method, MethodInfo>>> = table("2026-07-28", {
  "server/discover": { kind: "request", direction: C2S, cacheable: true },
  "tools/list": { kind: "request", direction: C2S, capability: server("tools"), cacheable: true },
  "tools/call": { kind: "request", direction: C2S, capability: server("tools"), mrtr: true },
  "prompts/list": { kind: "request", direction: C2S, capability: server("prompts"), cacheable: true },
  "prompts/get": { kind: "request", direction: C2S, capability: server("prompts"), mrtr: true },
  "resources/list": { kind: "request", direction: C2S, capability: server("resources"), cacheable: true },
  "resources/templates/list": {
    kind: "request",
    direction: C2S,
    capability: server("resources"),
    cacheable: true,
  },
  "resources/read": {
    kind: "request",
    direction: C2S,
    capability: server("resources"),
    mrtr: true,
    cacheable: true,
  },
  "completion/complete": { kind: "request", direction: C2S, capability: server("completions") },
  "subscriptions/listen": { kind: "request", direction: C2S },
  "elicitation/create": { kind: "input-request", direction: S2C, capability: client("elicitation") },
  "sampling/createMessage": { kind: "input-request", direction: S2C, capability: client("sampling") },
  "roots/list": { kind: "input-request", direction: S2C, capability: client("roots") },
  "tasks/get": { kind: "request", direction: C2S, capability: tasksExtension, extension: TASKS_EXTENSION_ID },
  "tasks/update": {
    kind: "request",
    direction: C2S,
    capability: tasksExtension,
    extension: TASKS_EXTENSION_ID,
  },
  "tasks/cancel": {
    kind: "request",
    direction: C2S,
    capability: tasksExtension,
    extension: TASKS_EXTENSION_ID,
  },
  "skills/list": {
    kind: "request",
    direction: C2S,
    capability: skillsExtension,
    cacheable: true,
    extension: SKILLS_EXTENSION_ID,
  },
  "skills/get": {
    kind: "request",
    direction: C2S,
    capability: skillsExtension,
    cacheable: true,
    extension: SKILLS_EXTENSION_ID,
  },
  "resources/directory/read": {
    kind: "request",
    direction: C2S,
    capability: server("extensions", SKILLS_EXTENSION_ID, "directoryRead"),
    extension: SKILLS_EXTENSION_ID,
  },
  ...NOTIFICATIONS_OF_BOTH_ERAS,
  // 2026-07-28 has no server-to-client requests, so only the server reports progress.
  "notifications/progress": { kind: "notification", direction: S2C },
  "notifications/subscriptions/acknowledged": { kind: "notification", direction: S2C },
  "notifications/tasks": {
    kind: "notification",
    direction: S2C,
    capability: tasksExtension,
    extension: TASKS_EXTENSION_ID,
  },
});

/**
 * What the table of `era` says about `method`, or `undefined` when the era does not have it.
 */
export function getMethodInfo(method: string, era: ProtocolEra): MethodInfo | undefined {
  const t = era === "modern" ? MODERN_METHODS : LEGACY_METHODS;
  return Object.hasOwn(t, method) ? t[method as Method] : undefined;
}

/**
 * Whether `method` exists in protocol `version` (core methods; for 2026-07-28 also the tasks extension's).
 * False for an unsupported version.
 */
export function isMethodInVersion(method: string, version: string): boolean {
  if (isModernVersion(version)) return getMethodInfo(method, "modern") !== undefined;
  if (!isLegacyVersion(version)) return false;
  const info = getMethodInfo(method, "legacy");
  // ISO dates compare correctly as strings.
  return info !== undefined && info.since <= version;
}

/** Whether `method` may answer with an `input_required` result (2026-07-28). */
export function isMrtrMethod(method: string): boolean {
  return getMethodInfo(method, "modern")?.mrtr === true;
}

/** Whether `method`'s complete result carries cache hints (2026-07-28). */
export function isCacheableMethod(method: string): boolean {
  return getMethodInfo(method, "modern")?.cacheable === true;
}

/**
 * The concrete side and path a method needs when sent in `direction`: resolves `receiver` to `server` for
 * client-to-server and to `client` for server-to-client. `undefined` when the method needs none.
 */
export function requiredCapability(
  info: MethodInfo,
  direction: "client-to-server" | "server-to-client",
): { side: "server" | "client"; path: readonly string[] } | undefined {
  const cap = info.capability;
  if (cap === undefined) return undefined;
  if (cap.side !== "receiver") return { side: cap.side, path: cap.path };
  return { side: direction === "client-to-server" ? "server" : "client", path: cap.path };
}

/**
 * Whether a capabilities object declares the capability at `path`: every step exists, and the value is
 * neither `undefined`, `null` nor `false`. Extension ids are one step (`["extensions", "io.…/tasks"]`).
 */
export function hasCapability(capabilities: object | undefined, path: readonly string[]): boolean {
  let node: unknown = capabilities;
  for (const step of path) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, step)) return false;
    node = (node as Record<string, unknown>)[step];
  }
  return node !== undefined && node !== null && node !== false;
}
