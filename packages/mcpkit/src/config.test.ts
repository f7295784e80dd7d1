import { describe, expect, it } from "vitest";
import { selectServer } from "./config.js";

describe("mcpServers config files", () => {
  it("reads a Claude Desktop stdio entry and expands variables", () => {
    const config = {
      mcpServers: {
        fs: {
          command: "npx",
          args: ["-y", "server-filesystem", `${"$"}{HOME}/docs`],
          env: { TOKEN: `${"$"}{env:SECRET}` },
        },
      },
    };
    expect(selectServer(config, "fs", { HOME: "/home/me", SECRET: "s3" })).toEqual({
      command: "npx",
      args: ["-y", "server-filesystem", "/home/me/docs"],
      env: { TOKEN: "s3" },
    });
  });

  it("reads a VS Code `servers` HTTP entry", () => {
    expect(
      selectServer({ servers: { api: { type: "http", url: "https://x/mcp", headers: { A: "b" } } } }, "api"),
    ).toEqual({
      url: "https://x/mcp",
      headers: { A: "b" },
      type: "http",
    });
  });

  it("names the servers it has when the one asked for is missing", () => {
    expect(() => selectServer({ mcpServers: { a: { command: "x" }, b: { command: "y" } } }, "c")).toThrow(
      'no server "c" in the config file (it has: a, b)',
    );
    expect(() => selectServer({}, "a")).toThrow(/mcpServers/);
    expect(() => selectServer({ mcpServers: { a: { foo: 1 } } }, "a")).toThrow(/neither/);
  });
});
