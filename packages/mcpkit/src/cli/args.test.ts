import { describe, expect, it } from "vitest";
import { coerceArgs, parseArgs, UsageError } from "./args.js";

describe("CLI arguments", () => {
  it("reads a URL target and a tool name", () => {
    expect(parseArgs(["call", "http://127.0.0.1:3000/mcp", "echo", "--arg", "message=hi"])).toMatchObject({
      command: "call",
      target: { kind: "url", url: "http://127.0.0.1:3000/mcp" },
      name: "echo",
      pairs: [["message", "hi"]],
    });
  });

  it("takes everything after -- as the command line", () => {
    expect(parseArgs(["tools", "--json", "--", "npx", "-y", "server", "--flag"])).toMatchObject({
      command: "tools",
      json: true,
      target: { kind: "command", command: "npx", args: ["-y", "server", "--flag"] },
    });
  });

  it("tells --json arguments from --json output", () => {
    const args = parseArgs(["call", "http://x/mcp", "add", "--json", '{"a":1,"b":2}', "--json"]);
    expect(args.jsonArgs).toEqual({ a: 1, b: 2 });
    expect(args.json).toBe(true);
  });

  it("reads --config and --server", () => {
    expect(parseArgs(["inspect", "--config", "mcp.json", "--server", "fs"]).target).toEqual({
      kind: "config",
      file: "mcp.json",
      server: "fs",
    });
  });

  it("reads skill NAME and --file, refusing --file elsewhere", () => {
    expect(parseArgs(["skill", "http://x/mcp", "pdf", "--file", "references/FORMS.md"])).toMatchObject({
      command: "skill",
      name: "pdf",
      file: "references/FORMS.md",
    });
    expect(parseArgs(["skills", "--json", "http://x/mcp"])).toMatchObject({ command: "skills", json: true });
    expect(() => parseArgs(["skill", "http://x/mcp"])).toThrow("skill needs <name>");
    expect(() => parseArgs(["read", "http://x/mcp", "u", "--file", "x"])).toThrow(
      "--file applies to skill only",
    );
  });

  it("gives help for a command", () => {
    expect(parseArgs(["call", "--help"])).toMatchObject({ command: "help", helpFor: "call" });
    expect(parseArgs([])).toMatchObject({ command: "help" });
  });

  it.each([
    [["frobnicate", "http://x"], /unknown command/],
    [["tools"], /needs a target/],
    [["call", "http://x/mcp"], /needs <tool>/],
    [["tools", "ftp://x"], /http\(s\) URL/],
    [["tools", "http://x", "--arg", "novalue"], /key=value/],
    [["tools", "http://x", "--bogus"], /unknown option/],
    [["call", "http://x", "t", "--json", "{nope"], /JSON object/],
    [["tools", "--server", "x"], /--config/],
  ])("refuses %j with one clear line", (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(UsageError);
    expect(() => parseArgs(argv)).toThrow(message);
  });

  it("coerces --arg values by the tool's input schema", () => {
    const schema = {
      properties: {
        n: { type: "integer" },
        x: { type: "number" },
        ok: { type: "boolean" },
        tags: { type: "array" },
        s: { type: "string" },
        maybe: { type: ["null", "number"] },
      },
    };
    expect(
      coerceArgs(
        [
          ["n", "3"],
          ["x", "2.5"],
          ["ok", "true"],
          ["tags", '["a"]'],
          ["s", "42"],
          ["maybe", "7"],
        ],
        schema,
      ),
    ).toEqual({ n: 3, x: 2.5, ok: true, tags: ["a"], s: "42", maybe: 7 });
    expect(() => coerceArgs([["n", "3.5"]], schema)).toThrow(/integer/);
    expect(() => coerceArgs([["ok", "yes"]], schema)).toThrow(/true or false/);
  });

  it("guesses JSON scalars when there is no schema", () => {
    expect(
      coerceArgs([
        ["a", "1"],
        ["b", "false"],
        ["c", "hello"],
        ["d", "{bad"],
      ]),
    ).toEqual({
      a: 1,
      b: false,
      c: "hello",
      d: "{bad",
    });
  });
});
