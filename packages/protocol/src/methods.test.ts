import { loadSchema } from "@mcpkit/test-kit/spec";
import { describe, expect, it } from "vitest";
import { TASKS_EXTENSION_ID } from "./meta.js";
import {
  getMethodInfo,
  hasCapability,
  isCacheableMethod,
  isMethodInVersion,
  isMrtrMethod,
  LEGACY_METHODS,
  Method,
  MODERN_METHODS,
  requiredCapability,
} from "./methods.js";
import { SKILLS_EXTENSION_ID } from "./skills.js";

// Every `method` constant a schema file defines: the oracle for the method tables.
function schemaMethods(name: Parameters<typeof loadSchema>[0]): Set<string> {
  const found = new Set<string>();
  const walk = (node: unknown, key?: string) => {
    if (Array.isArray(node)) for (const n of node) walk(n);
    else if (typeof node === "object" && node !== null) {
      const o = node as Record<string, unknown>;
      if (key === "method" && typeof o.const === "string") found.add(o.const);
      for (const [k, v] of Object.entries(o)) walk(v, k);
    }
  };
  walk(loadSchema(name));
  return found;
}

describe("Method", () => {
  it("has one unique name per constant", () => {
    const values = Object.values(Method);
    expect(new Set(values).size).toBe(values.length);
    expect(Method.ToolsCall).toBe("tools/call");
    expect(Method.ServerDiscover).toBe("server/discover");
    expect(Method.SubscriptionsListen).toBe("subscriptions/listen");
    expect(Method.NotificationsSubscriptionsAcknowledged).toBe("notifications/subscriptions/acknowledged");
    expect(Method.NotificationsTasks).toBe("notifications/tasks");
  });

  it("covers exactly the names of both tables", () => {
    const tabled = new Set([...Object.keys(LEGACY_METHODS), ...Object.keys(MODERN_METHODS)]);
    expect([...tabled].sort()).toEqual(Object.values(Method).sort());
  });
});

describe("method tables match the spec's schemas", () => {
  it.each(["2025-06-18", "2025-11-25"] as const)("legacy methods in %s", (version) => {
    const ours = Object.keys(LEGACY_METHODS).filter((m) => isMethodInVersion(m, version));
    expect(ours.sort()).toEqual([...schemaMethods(version)].sort());
  });

  it("modern methods are the 2026-07-28 schema's plus the tasks and Skills extensions'", () => {
    // The Skills extension (SEP-2640) publishes no JSON Schema; its three methods are from its text.
    const skills = ["skills/list", "skills/get", "resources/directory/read"];
    const expected = new Set([...schemaMethods("2026-07-28"), ...schemaMethods("ext-tasks"), ...skills]);
    expect(Object.keys(MODERN_METHODS).sort()).toEqual([...expected].sort());
    for (const info of Object.values(MODERN_METHODS)) {
      expect(info.extension === TASKS_EXTENSION_ID).toBe(
        info.method.startsWith("tasks/") || info.method === "notifications/tasks",
      );
      expect(info.extension === SKILLS_EXTENSION_ID).toBe(skills.includes(info.method));
    }
  });

  it("names only capabilities the schemas define", () => {
    const props = (def: string, schema: "2025-11-25" | "2026-07-28") =>
      Object.keys(((loadSchema(schema).$defs?.[def] ?? {}) as { properties: object }).properties);
    for (const [table, schema] of [
      [LEGACY_METHODS, "2025-11-25"],
      [MODERN_METHODS, "2026-07-28"],
    ] as const) {
      for (const info of Object.values(table)) {
        const cap = info.capability;
        if (cap === undefined) continue;
        const sides = cap.side === "receiver" ? ["server", "client"] : [cap.side];
        for (const side of sides) {
          const def = side === "server" ? "ServerCapabilities" : "ClientCapabilities";
          expect(props(def, schema), `${info.method} needs ${side} ${cap.path.join(".")}`).toContain(
            cap.path[0],
          );
        }
      }
    }
  });

  it("marks removed methods as legacy only", () => {
    for (const m of [
      "initialize",
      "ping",
      "logging/setLevel",
      "resources/subscribe",
      "notifications/roots/list_changed",
    ]) {
      expect(isMethodInVersion(m, "2025-11-25")).toBe(true);
      expect(isMethodInVersion(m, "2026-07-28")).toBe(false);
    }
    expect(isMethodInVersion("elicitation/create", "2025-03-26")).toBe(false);
    expect(isMethodInVersion("elicitation/create", "2025-06-18")).toBe(true);
    expect(isMethodInVersion("tasks/list", "2025-06-18")).toBe(false);
    expect(isMethodInVersion("server/discover", "2026-07-28")).toBe(true);
    expect(isMethodInVersion("tools/call", "1999-01-01")).toBe(false);
  });
});

describe("method facts", () => {
  it("MRTR and caching apply to the spec's methods only", () => {
    const mrtr = Object.values(MODERN_METHODS)
      .filter((i) => i.mrtr)
      .map((i) => i.method);
    expect(mrtr.sort()).toEqual(["prompts/get", "resources/read", "tools/call"]);
    const cacheable = Object.values(MODERN_METHODS)
      .filter((i) => i.cacheable)
      .map((i) => i.method);
    expect(cacheable.sort()).toEqual([
      "prompts/list",
      "resources/list",
      "resources/read",
      "resources/templates/list",
      "server/discover",
      "skills/get",
      "skills/list",
      "tools/list",
    ]);
    expect(Object.values(LEGACY_METHODS).some((i) => i.mrtr || i.cacheable)).toBe(false);
    expect(isMrtrMethod("tools/call")).toBe(true);
    expect(isMrtrMethod("tools/list")).toBe(false);
    expect(isCacheableMethod("resources/read")).toBe(true);
    expect(isCacheableMethod("toString")).toBe(false);
  });

  it("knows directions, kinds and capabilities", () => {
    expect(getMethodInfo("tools/call", "modern")).toMatchObject({
      kind: "request",
      direction: "client-to-server",
      capability: { side: "server", path: ["tools"] },
    });
    expect(getMethodInfo("sampling/createMessage", "legacy")).toMatchObject({
      kind: "request",
      direction: "server-to-client",
      capability: { side: "client", path: ["sampling"] },
    });
    expect(getMethodInfo("elicitation/create", "modern")?.kind).toBe("input-request");
    expect(getMethodInfo("initialize", "modern")).toBeUndefined();
    expect(getMethodInfo("__proto__", "legacy")).toBeUndefined();
    const tasksGet = getMethodInfo("tasks/get", "legacy")!;
    expect(requiredCapability(tasksGet, "client-to-server")).toEqual({ side: "server", path: ["tasks"] });
    expect(requiredCapability(tasksGet, "server-to-client")).toEqual({ side: "client", path: ["tasks"] });
    expect(requiredCapability(getMethodInfo("ping", "legacy")!, "client-to-server")).toBeUndefined();
  });

  it("hasCapability walks capability paths", () => {
    const caps = {
      tools: {},
      resources: { subscribe: false, listChanged: true },
      extensions: { [TASKS_EXTENSION_ID]: {} },
    };
    expect(hasCapability(caps, ["tools"])).toBe(true);
    expect(hasCapability(caps, ["resources", "listChanged"])).toBe(true);
    expect(hasCapability(caps, ["resources", "subscribe"])).toBe(false);
    expect(hasCapability(caps, ["prompts"])).toBe(false);
    expect(hasCapability(caps, ["extensions", TASKS_EXTENSION_ID])).toBe(true);
    expect(hasCapability(undefined, ["tools"])).toBe(false);
  });
});
