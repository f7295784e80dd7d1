import { describe, expect, it } from "vitest";
import { parseCassetteArgs } from "./cassette-args.js";

describe("parseCassetteArgs", () => {
  it("reads record's flags and its target, a command after -- or a URL", () => {
    expect(
      parseCassetteArgs([
        "record",
        "--out",
        "c.json",
        "--redact",
        "account",
        "--timings",
        "--",
        "node",
        "s.js",
        "--x",
      ]),
    ).toMatchObject({
      command: "record",
      out: "c.json",
      redactKeys: ["account"],
      timings: true,
      redact: true,
      target: { kind: "command", command: "node", args: ["s.js", "--x"] },
    });
    expect(
      parseCassetteArgs(["record", "-o", "c.json", "--no-redact", "-H", "X-Key: 1", "https://h/mcp"]),
    ).toMatchObject({
      redact: false,
      headers: { "X-Key": "1" },
      target: { kind: "url", url: "https://h/mcp" },
    });
  });

  it("reads replay, verify and diff", () => {
    expect(parseCassetteArgs(["replay", "c.json", "--http", "8080", "--match", "exact"])).toMatchObject({
      file: "c.json",
      httpPort: 8080,
      match: "exact",
    });
    expect(parseCassetteArgs(["verify", "c.json", "http://h/mcp", "--timeout", "500"])).toMatchObject({
      file: "c.json",
      timeout: 500,
      target: { kind: "url", url: "http://h/mcp" },
    });
    expect(parseCassetteArgs(["diff", "a.json", "--json", "--", "node", "s.js"])).toMatchObject({
      operands: ["a.json"],
      json: true,
      target: { kind: "command", command: "node" },
    });
  });

  it("names what is missing or wrong", () => {
    expect(() => parseCassetteArgs(["record", "--", "node"])).toThrow("record needs --out FILE");
    expect(() => parseCassetteArgs(["record", "--out", "c.json"])).toThrow("record needs a server");
    expect(() => parseCassetteArgs(["verify", "c.json"])).toThrow("verify needs a server");
    expect(() => parseCassetteArgs(["replay"])).toThrow("replay needs the cassette file");
    expect(() => parseCassetteArgs(["diff", "a.json"])).toThrow("diff needs two things to compare");
    expect(() => parseCassetteArgs(["replay", "c.json", "--match", "fuzzy"])).toThrow(
      "--match must be exact or loose",
    );
    expect(() => parseCassetteArgs(["replay", "c.json", "--bogus"])).toThrow(
      "replay: unknown option --bogus",
    );
  });
});
