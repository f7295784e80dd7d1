// The CLI against the registry's reference server, over stdio and Streamable HTTP.
import { serverEverythingEntry, startServerEverythingHttp } from "@mcpkit/peers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli/main.js";

function capture() {
  let stdout = "";
  let stderr = "";
  return {
    io: {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
      env: process.env,
      cwd: process.cwd(),
    },
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
  };
}

const stdio = () => ["--", process.execPath, serverEverythingEntry(), "stdio"];

describe("mcpkit CLI against server-everything over stdio", () => {
  it("inspects", async () => {
    const c = capture();
    expect(await main(["inspect", "--json", ...stdio()], c.io)).toBe(0);
    const info = JSON.parse(c.stdout);
    expect(info.server.name).toMatch(/everything/i);
    expect(info.era).toBe("legacy");
    expect(info.counts.tools).toBeGreaterThan(5);
  });

  it("lists tools, calls echo with --arg, and reads a resource", async () => {
    const list = capture();
    expect(await main(["tools", ...stdio()], list.io)).toBe(0);
    expect(list.stdout).toMatch(/^echo\s/m);
    const call = capture();
    expect(await main(["call", "echo", "--arg", "message=hello cli", ...stdio()], call.io)).toBe(0);
    expect(call.stdout).toContain("hello cli");
    const resources = capture();
    expect(await main(["resources", "--json", ...stdio()], resources.io)).toBe(0);
    const first = JSON.parse(resources.stdout)[0];
    const read = capture();
    expect(await main(["read", first.uri, ...stdio()], read.io)).toBe(0);
    expect(read.stdout.length).toBeGreaterThan(0);
  });

  it("gets a prompt and lists prompts", async () => {
    const prompts = capture();
    expect(await main(["prompts", "--json", ...stdio()], prompts.io)).toBe(0);
    const names = JSON.parse(prompts.stdout).map((p: { name: string }) => p.name);
    expect(names.length).toBeGreaterThan(0);
    const simple = names.find((n: string) => /simple/i.test(n)) ?? names[0];
    const got = capture();
    expect(await main(["prompt", simple, ...stdio()], got.io)).toBe(0);
    expect(got.stdout).toMatch(/^(user|assistant):/m);
  });

  it("exits 2 with one line for an unknown tool, naming the tools it has", async () => {
    const c = capture();
    expect(await main(["call", "no-such-tool", ...stdio()], c.io)).toBe(2);
    expect(c.stderr.trim().split("\n")).toHaveLength(1);
    expect(c.stderr).toMatch(/no tool "no-such-tool".*echo/);
  });

  it("exits 1 with one line when the server cannot be started", async () => {
    const c = capture();
    expect(await main(["tools", "--", "/nonexistent/server-binary"], c.io)).toBe(1);
    expect(c.stderr.trim().split("\n")).toHaveLength(1);
    expect(c.stderr).toMatch(/^mcpkit: .*nonexistent/);
  });
});

describe("mcpkit CLI against server-everything over Streamable HTTP", () => {
  let server: Awaited<ReturnType<typeof startServerEverythingHttp>>;
  beforeAll(async () => {
    server = await startServerEverythingHttp({ mode: "streamableHttp" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("inspects, lists and calls", async () => {
    const info = capture();
    expect(await main(["inspect", server.url], info.io)).toBe(0);
    expect(info.stdout).toMatch(/era\s+legacy/);
    const call = capture();
    expect(await main(["call", server.url, "echo", "--json", '{"message":"over http"}'], call.io)).toBe(0);
    expect(call.stdout).toContain("over http");
  });
});

describe("mcpkit CLI against server-everything over HTTP+SSE (2024-11-05 fallback)", () => {
  let server: Awaited<ReturnType<typeof startServerEverythingHttp>>;
  beforeAll(async () => {
    server = await startServerEverythingHttp({ mode: "sse" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("lists tools through the fallback", async () => {
    const c = capture();
    expect(await main(["tools", server.url], c.io)).toBe(0);
    expect(c.stdout).toMatch(/^echo\s/m);
  });
});
