import { describe, expect, it } from "vitest";
import { findSecrets, REDACTED, redactUrl, redactValue } from "./redact.js";

describe("redactValue", () => {
  const message = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "fetch",
      arguments: {
        url: "https://api.example.com/v1?access_token=abc123&page=2",
        headers: { Authorization: "Bearer eyJhbGciOi", Cookie: "sid=42", "x-api-key": "k-1" },
        note: "use Bearer sk-abcdef please",
        account: "acct-7",
      },
      _meta: { progressToken: 7, "com.example/sessionToken": "tok-9" },
    },
    result: { tools: [{ inputSchema: { properties: { token: { type: "string" } } } }] },
  };

  it("replaces credentials, cookies, tokens in URLs and _meta, and keys the user names; keeps the rest", () => {
    const out = redactValue(message, { keys: ["account"] }) as typeof message;
    const args = out.params.arguments;
    expect(args.url).toBe(`https://api.example.com/v1?access_token=${encodeURIComponent(REDACTED)}&page=2`);
    expect(args.headers).toEqual({ Authorization: REDACTED, Cookie: REDACTED, "x-api-key": REDACTED });
    expect(args.note).toBe(`use Bearer ${REDACTED} please`);
    expect(args.account).toBe(REDACTED);
    expect(out.params._meta).toEqual({ progressToken: 7, "com.example/sessionToken": REDACTED });
    // A schema property named "token" is structure, not a secret.
    expect(out.result).toEqual(message.result);
    expect(message.params.arguments.headers.Authorization).toBe("Bearer eyJhbGciOi");
  });

  it("findSecrets names what redaction would change, and nothing once redacted", () => {
    expect(findSecrets(message, { keys: ["account"] })).toEqual([
      "$.params.arguments.url",
      "$.params.arguments.headers.Authorization",
      "$.params.arguments.headers.Cookie",
      "$.params.arguments.headers.x-api-key",
      "$.params.arguments.note",
      "$.params.arguments.account",
      "$.params._meta.com.example/sessionToken",
    ]);
    expect(findSecrets(redactValue(message, { keys: ["account"] }), { keys: ["account"] })).toEqual([]);
  });

  it("redactUrl hides user:password and credential parameters", () => {
    expect(redactUrl("https://ann:pw@host/mcp?key=1&q=x")).toBe(
      `https://${encodeURIComponent(REDACTED)}@host/mcp?key=${encodeURIComponent(REDACTED)}&q=x`,
    );
    expect(redactUrl("not a url")).toBe("not a url");
  });
});
