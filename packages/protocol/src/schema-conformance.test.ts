import { schemaErrors } from "@mcpkit/test-kit/spec";
import { describe, expect, it } from "vitest";
import { audio, embeddedResource, image, resourceLink, text, toBase64 } from "./content.js";
import { McpError } from "./errors.js";
import { MetaKey, TASKS_EXTENSION_ID } from "./meta.js";
import { ResultType } from "./result-type.js";
import type { ModernRequestMeta } from "./types/base.js";
import type { DiscoverResult } from "./types/discover.js";
import type { InitializeResult } from "./types/lifecycle.js";
import type { InputRequiredResult } from "./types/mrtr.js";
import type { CreateTaskResult, GetTaskResult } from "./types/tasks.js";
import type { CallToolRequestParams, CallToolResult, Tool } from "./types/tools.js";
import { LATEST_LEGACY_PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION } from "./versions.js";

const png = toBase64(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
const blocks = [
  text("hello"),
  text("for the user", { audience: ["user"], priority: 0.5, lastModified: "2025-01-12T15:00:58Z" }),
  image(png, "image/png"),
  audio(toBase64(new Uint8Array([1, 2, 3, 4, 5])), "audio/wav"),
  resourceLink({ uri: "file:///project/README.md", name: "README", mimeType: "text/markdown" }),
  embeddedResource({ uri: "file:///a.txt", mimeType: "text/plain", text: "A" }),
  embeddedResource({ uri: "file:///a.bin", blob: toBase64(new Uint8Array([0, 255])) }),
];

describe("content builders", () => {
  it.each(blocks.map((b) => [b.type, b] as const))("%s block is a 2026-07-28 ContentBlock", (_t, block) => {
    expect(schemaErrors("2026-07-28", "ContentBlock", block)).toBe("");
  });
  it.each(blocks.map((b) => [b.type, b] as const))("%s block is a 2025-11-25 ContentBlock", (_t, block) => {
    expect(schemaErrors("2025-11-25", "ContentBlock", block)).toBe("");
  });
  it("the oracle rejects a malformed block", () => {
    expect(schemaErrors("2026-07-28", "ContentBlock", { type: "image", data: png })).not.toBe("");
  });
});

const serverInfo = { name: "mcpkit-test", version: "1.0.0" };

describe("typed objects validate against the schemas", () => {
  it("DiscoverResult", () => {
    const result: DiscoverResult = {
      resultType: ResultType.Complete,
      supportedVersions: [LATEST_PROTOCOL_VERSION],
      capabilities: { tools: { listChanged: true }, extensions: { [TASKS_EXTENSION_ID]: {} } },
      instructions: "Use the tools.",
      ttlMs: 60_000,
      cacheScope: "public",
      _meta: { [MetaKey.ServerInfo]: serverInfo },
    };
    expect(schemaErrors("2026-07-28", "DiscoverResult", result)).toBe("");
  });

  it("InputRequiredResult with every kind of input request", () => {
    const result: InputRequiredResult = {
      resultType: ResultType.InputRequired,
      inputRequests: {
        name: {
          method: "elicitation/create",
          params: {
            message: "Your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          },
        },
        consent: {
          method: "elicitation/create",
          params: { mode: "url", message: "Sign in", url: "https://x.test" },
        },
        answer: {
          method: "sampling/createMessage",
          params: { messages: [{ role: "user", content: text("2+2?") }], maxTokens: 10 },
        },
        roots: { method: "roots/list" },
      },
      requestState: "opaque",
    };
    expect(schemaErrors("2026-07-28", "InputRequiredResult", result)).toBe("");
  });

  it("a modern tools/call request retrying with inputResponses", () => {
    const _meta: ModernRequestMeta = {
      [MetaKey.ProtocolVersion]: LATEST_PROTOCOL_VERSION,
      [MetaKey.ClientCapabilities]: { elicitation: {}, extensions: { [TASKS_EXTENSION_ID]: {} } },
      [MetaKey.ClientInfo]: { name: "client", version: "0.0.1" },
      [MetaKey.LogLevel]: "info",
      progressToken: 7,
    };
    const params: CallToolRequestParams = {
      name: "greet",
      arguments: { who: "world" },
      inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
      requestState: "opaque",
      _meta,
    };
    const request = { jsonrpc: "2.0", id: 2, method: "tools/call", params };
    expect(schemaErrors("2026-07-28", "CallToolRequest", request)).toBe("");
    // The modern schema requires the _meta fields the legacy era did not have.
    const { _meta: _dropped, ...withoutMeta } = params;
    expect(schemaErrors("2026-07-28", "CallToolRequest", { ...request, params: withoutMeta })).not.toBe("");
  });

  it("CallToolResult in both eras", () => {
    const modern: CallToolResult = {
      resultType: ResultType.Complete,
      content: [text("[1,2]")],
      structuredContent: [1, 2],
    };
    expect(schemaErrors("2026-07-28", "CallToolResult", modern)).toBe("");
    const legacy: CallToolResult = { content: [text("{}")], structuredContent: { ok: true }, isError: false };
    expect(schemaErrors("2025-11-25", "CallToolResult", legacy)).toBe("");
    expect(schemaErrors("2025-06-18", "CallToolResult", legacy)).toBe("");
  });

  it("Tool with an x-mcp-header annotation", () => {
    const tool: Tool = {
      name: "execute_sql",
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" } },
        required: ["region"],
      },
      annotations: { readOnlyHint: true },
    };
    expect(schemaErrors("2026-07-28", "Tool", tool)).toBe("");
    expect(schemaErrors("2025-11-25", "Tool", tool)).toBe("");
  });

  it("InitializeResult for 2025-11-25", () => {
    const result: InitializeResult = {
      protocolVersion: LATEST_LEGACY_PROTOCOL_VERSION,
      capabilities: { tools: {}, logging: {}, tasks: { list: {}, requests: { tools: { call: {} } } } },
      serverInfo: {
        ...serverInfo,
        title: "Test",
        icons: [{ src: "https://x.test/i.png", sizes: ["48x48"] }],
      },
      instructions: "Hello",
    };
    expect(schemaErrors("2025-11-25", "InitializeResult", result)).toBe("");
  });

  it("tasks extension results", () => {
    const created: CreateTaskResult = {
      resultType: ResultType.Task,
      taskId: "t-1",
      status: "working",
      createdAt: "2026-01-01T00:00:00Z",
      lastUpdatedAt: "2026-01-01T00:00:00Z",
      ttlMs: null,
      pollIntervalMs: 500,
    };
    expect(schemaErrors("ext-tasks", "CreateTaskResult", created)).toBe("");
    const done: GetTaskResult = {
      resultType: "complete",
      taskId: "t-1",
      status: "completed",
      createdAt: "2026-01-01T00:00:00Z",
      lastUpdatedAt: "2026-01-01T00:01:00Z",
      ttlMs: 60_000,
      result: { resultType: "complete", content: [text("done")] },
    };
    expect(schemaErrors("ext-tasks", "GetTaskResult", done)).toBe("");
  });

  it("McpError helpers produce the spec's error responses", () => {
    const response = (e: McpError) => ({ jsonrpc: "2.0", id: 1, error: e.toJSON() });
    expect(
      schemaErrors(
        "2026-07-28",
        "UnsupportedProtocolVersionError",
        response(McpError.unsupportedProtocolVersion(["2026-07-28"], "2099-01-01")),
      ),
    ).toBe("");
    expect(
      schemaErrors(
        "2026-07-28",
        "MissingRequiredClientCapabilityError",
        response(McpError.missingClientCapability({ elicitation: { url: {} } })),
      ),
    ).toBe("");
    expect(
      schemaErrors("2026-07-28", "HeaderMismatchError", response(McpError.headerMismatch("Mcp-Name"))),
    ).toBe("");
    expect(
      schemaErrors("2026-07-28", "MethodNotFoundError", McpError.methodNotFound("nope/x").toJSON()),
    ).toBe("");
    expect(schemaErrors("2026-07-28", "InvalidParamsError", McpError.invalidParams("bad").toJSON())).toBe("");
  });
});
