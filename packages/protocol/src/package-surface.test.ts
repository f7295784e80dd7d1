import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = path.dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "test-support" ? [] : sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("the public surface", () => {
  it("the telemetry and skill-content entries export exactly these runtime names", async () => {
    expect(Object.keys(await import("./telemetry.js")).sort()).toEqual([
      "MCP_DURATION_BUCKETS",
      "McpTelemetry",
      "SPAN_STATUS_ERROR",
      "SpanKindValue",
      "errorType",
      "resolveTelemetry",
    ]);
    expect(Object.keys(await import("./skill-content.js")).sort()).toEqual([
      "SkillFormatError",
      "fromBase64",
      "frontmatterDifferences",
      "parseSkillMd",
      "sha256Digest",
      "skillEntryProblem",
      "skillNameProblem",
      "skillUriParts",
    ]);
  });

  it("exports exactly these runtime names", async () => {
    expect(Object.keys(await import("./index.js")).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_NEGOTIATED_HTTP_VERSION",
        "DIRECTORY_MIME_TYPE",
        "Header",
        "LATEST_LEGACY_PROTOCOL_VERSION",
        "LATEST_PROTOCOL_VERSION",
        "LEGACY_METHODS",
        "LEGACY_PROTOCOL_VERSIONS",
        "LOGGING_LEVELS",
        "MAX_TOOL_NAME_LENGTH",
        "MODERN_METHODS",
        "MODERN_PROTOCOL_VERSIONS",
        "McpError",
        "McpErrorCode",
        "MetaKey",
        "Method",
        "ResultType",
        "SKILLS_EXTENSION_ID",
        "SKILL_LIMITS",
        "SKILL_MD",
        "SUPPORTED_PROTOCOL_VERSIONS",
        "TASKS_EXTENSION_ID",
        "X_MCP_HEADER",
        "allowsBatches",
        "audio",
        "collectParamHeaders",
        "decodeHeaderValue",
        "embeddedResource",
        "encodeHeaderValue",
        "eraOf",
        "findXMcpHeaderProblem",
        "fromBase64",
        "getMethodInfo",
        "hasCapability",
        "image",
        "isCacheableMethod",
        "isLegacyVersion",
        "isLevelEnabled",
        "isLoggingLevel",
        "isMethodInVersion",
        "isModernError",
        "isModernVersion",
        "isMrtrMethod",
        "isReservedMetaKey",
        "isSupportedVersion",
        "loadOpenTelemetry",
        "mcpNameFor",
        "modernRequestHeaders",
        "readResultType",
        "readUnsupportedVersionData",
        "requiredCapability",
        "resourceLink",
        "text",
        "toBase64",
        "toolNameProblem",
        "validateXMcpHeaderAnnotations",
      ]
    `);
  });

  it("uses explicit named exports only", () => {
    expect(readFileSync(path.join(srcDir, "index.ts"), "utf8")).not.toMatch(/export \*/);
  });

  it("imports no node:* module and nothing from the test support", () => {
    for (const file of sourceFiles(srcDir)) {
      const text = readFileSync(file, "utf8");
      expect(text, path.relative(srcDir, file)).not.toMatch(/from "node:|import\("node:|test-kit/);
    }
  });
});
