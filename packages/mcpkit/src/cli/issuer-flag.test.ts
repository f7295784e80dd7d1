import { describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "./args.js";

describe("--issuer", () => {
  it("[issue-25.2] names the authorization server a pre-registered --client-id belongs to, and is required with it", () => {
    const url = "https://mcp.example.com/mcp";
    const args = parseArgs([
      "tools",
      url,
      "--oauth",
      "--client-id",
      "cli",
      "--issuer",
      "https://auth.example.com",
    ]);
    expect(args.clientId).toBe("cli");
    expect(args.issuer).toBe("https://auth.example.com");
    expect(() => parseArgs(["tools", url, "--oauth", "--client-id", "cli"])).toThrow(UsageError);
    expect(() => parseArgs(["tools", url, "--oauth", "--client-id", "cli"])).toThrow(
      /--client-id needs --issuer URL/,
    );
  });
});
