// Saved collections run headless against the reference server-everything over stdio: passing and failing
// assertions, a JSON-RPC error, and a server that cannot start, all reported in TAP.
import { fileURLToPath } from "node:url";
import { serverEverythingEntry } from "@mcpkit/peers";
import { describe, expect, it } from "vitest";
import { type InspectorTarget, parseCollection, runCollection } from "../src/index.js";

const everything: InspectorTarget = {
  kind: "stdio",
  command: process.execPath,
  args: [serverEverythingEntry(), "stdio"],
};

describe("runCollection", () => {
  it("passes and fails assertions on status, equals and matches, in TAP", async () => {
    const collection = parseCollection({
      steps: [
        {
          name: "sum",
          call: "get-sum",
          arguments: { a: 2, b: 40 },
          expect: { matches: { "content[0].text": "\\b42\\b" } },
        },
        {
          call: "echo",
          arguments: { message: "hi" },
          expect: { equals: { isError: false }, matches: { "content[0].text": "hi" } },
        },
        {
          name: "wrong on purpose",
          call: "get-sum",
          arguments: { a: 1, b: 1 },
          expect: { matches: { "content[0].text": "\\b3\\b" } },
        },
        { name: "unknown tool", call: "no-such-tool", expect: { status: "isError" } },
        { list: "tools", expect: { matches: { "items[0].name": "." } } },
      ],
    });
    const run = await runCollection(collection, everything);
    expect(run.passed).toBe(4);
    expect(run.failed).toBe(1);
    expect(run.tap).toMatch(/^TAP version 14\n1\.\.5\n/);
    expect(run.tap).toContain("ok 1 - sum");
    expect(run.tap).toContain("not ok 3 - wrong on purpose");
    expect(run.tap).toMatch(/does not match \/\\\\b3\\\\b\//);
    expect(run.tap).toContain("ok 4 - unknown tool");
  });

  it("reports a server that cannot start as one failed test with the doctor's diagnosis", async () => {
    const crashing = fileURLToPath(new URL("./fixtures/crashing-server.mjs", import.meta.url));
    const run = await runCollection(parseCollection({ steps: [{ call: "x" }] }), {
      kind: "stdio",
      command: process.execPath,
      args: [crashing],
    });
    expect(run.failed).toBe(1);
    expect(run.tap).toMatch(/not ok 1 - connect to .*\n.*\n {2}message: "process exited: .*code 1/);
  });

  it("refuses a malformed collection with a line naming the step", () => {
    expect(() => parseCollection({ steps: [{ call: "a", read: "b" }] })).toThrow(
      /steps\[0\] needs exactly one/,
    );
    expect(() => parseCollection({})).toThrow(/"steps" array/);
  });
});
