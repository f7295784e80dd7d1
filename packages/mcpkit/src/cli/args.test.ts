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

  it("tells --json arguments (the old spelling, with a notice) from --json output", () => {
    const args = parseArgs(["call", "http://x/mcp", "add", "--json", '{"a":1,"b":2}', "--json"]);
    expect(args.jsonArgs).toEqual({ a: 1, b: 2 });
    expect(args.json).toBe(true);
    expect(args.notices).toEqual([
      "--json '{…}' for arguments is now --args '{…}' (--json alone asks for JSON output)",
    ]);
  });

  it("takes --args JSON for arguments, with no notice", () => {
    const args = parseArgs(["call", "add", "--args", '{"a":1}', "http://x/mcp", "--json"]);
    expect(args).toMatchObject({ name: "add", jsonArgs: { a: 1 }, json: true, notices: [] });
    expect(() => parseArgs(["call", "add", "http://x/mcp", "--args", "[1]"])).toThrow(
      "--args expects a JSON object, got [1]",
    );
  });

  it.each([
    [["call", "http://x/mcp", "get-sum"]],
    [["call", "get-sum", "http://x/mcp"]],
    [["call", "--arg", "a=1", "get-sum", "http://x/mcp"]],
  ])("puts the URL before or after the tool: %j", (argv) => {
    expect(parseArgs(argv)).toMatchObject({ target: { kind: "url", url: "http://x/mcp" }, name: "get-sum" });
  });

  it("puts the tool before -- for a command target, and leaves the name out when not given", () => {
    expect(parseArgs(["call", "get-sum", "--", "node", "s.js", "get-sum"])).toMatchObject({
      name: "get-sum",
      target: { kind: "command", command: "node", args: ["s.js", "get-sum"] },
    });
    const bare = parseArgs(["call", "--", "node", "s.js"]);
    expect(bare.name).toBeUndefined();
    expect(bare.target).toEqual({ kind: "command", command: "node", args: ["s.js"] });
    expect(parseArgs(["prompt", "--config", "mcp.json", "--server", "e", "greet"]).name).toBe("greet");
  });

  it("reads an http(s) URI with a URL target: the first URL is the target", () => {
    expect(parseArgs(["read", "http://x/mcp", "https://example.com/doc"])).toMatchObject({
      target: { kind: "url", url: "http://x/mcp" },
      name: "https://example.com/doc",
    });
  });

  it("says what a target is when there is none", () => {
    expect(() => parseArgs(["call", "get-sum"])).toThrow(
      'call needs a target for tool "get-sum": an http(s) URL (before or after the name), -- command args… (last on the line), or --config FILE --server NAME',
    );
  });

  it("reads --trace-arguments, --save and --redirect-port, and notes secrets given as flags", () => {
    expect(parseArgs(["tools", "http://x/mcp", "--trace-arguments"])).toMatchObject({
      trace: true,
      traceArguments: true,
    });
    expect(parseArgs(["call", "t", "http://x/mcp", "--save", "out"]).save).toBe("out");
    expect(() => parseArgs(["tools", "http://x/mcp", "--save", "out"])).toThrow(
      "--save applies to call and read",
    );
    expect(parseArgs(["tools", "http://x/mcp", "--oauth", "--redirect-port", "8976"]).redirectPort).toBe(
      8976,
    );
    expect(() => parseArgs(["tools", "http://x/mcp", "--redirect-port", "8976"])).toThrow(
      "applies to --oauth",
    );
    expect(parseArgs(["tools", "http://x/mcp", "--bearer-token", "t"]).notices).toEqual([
      "--bearer-token is visible to other users in the process list; set MCPKIT_BEARER_TOKEN instead",
    ]);
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
    expect(parseArgs(["skill", "http://x/mcp"]).name).toBeUndefined();
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
    [["call", "a", "b", "http://x/mcp"], /unexpected argument b/],
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
