// connect() + serve() round trips over a real child process (stdio) and real HTTP on loopback.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleFixture } from "@mcpkit/test-kit";
import { describe, expect, it } from "vitest";
import { connect, createServer, serve, withClient } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const greeter = () => bundleFixture(join(here, "fixtures", "greeter-server.ts"));

describe("connect + serve", () => {
  it("over stdio: a command array, calls a tool, reads a resource, and the server exits with its stdin", async () => {
    const entry = await greeter();
    const client = await connect([process.execPath, entry], { stderr: "pipe" });
    try {
      expect(client.serverInfo?.name).toBe("greeter");
      const result = await client.callTool("greet", { name: "Ada" });
      expect(result).toMatchObject({ content: "Hello, Ada!", isError: false });
      const motto = await client.readResource("greeter://motto");
      expect(motto.contents[0]).toMatchObject({ text: "Be kind." });
    } finally {
      await client.close();
    }
  });

  it("over stdio: withClient closes the client even when the callback throws", async () => {
    const entry = await greeter();
    let seen: unknown;
    await expect(
      withClient({ command: process.execPath, args: [entry] }, async (client) => {
        seen = client;
        throw new Error("callback failed");
      }),
    ).rejects.toThrow("callback failed");
    await expect((seen as { listTools(): Promise<unknown> }).listTools()).rejects.toThrow();
  });

  it("over HTTP: serve(block: false) in-process, connect by URL in both eras", async () => {
    const server = createServer({ name: "in-process", version: "1.0.0" });
    server.registerTool(
      "twice",
      { inputSchema: { type: "object", properties: { n: { type: "number" } } } },
      (a: { n: number }) => ({
        n: a.n * 2,
      }),
    );
    const running = await serve(server, { transport: "http", port: 0, block: false, onListening: () => {} });
    try {
      for (const versionNegotiation of ["auto", "legacy", "modern"] as const) {
        await using client = await connect(running.url, { versionNegotiation });
        const result = await client.callTool("twice", { n: 21 });
        expect(result.structured).toEqual({ n: 42 });
        expect(client.era).toBe(versionNegotiation === "legacy" ? "legacy" : "modern");
      }
    } finally {
      await running.close();
    }
  });

  it("over HTTP: a served child process answers a client by URL", async () => {
    const entry = await greeter();
    const child = spawn(process.execPath, [entry, "http"], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const [line] = (await Promise.race([
        once(child.stdout, "data"),
        new Promise((_, reject) => setTimeout(() => reject(new Error("server did not start")), 15_000)),
      ])) as [Buffer];
      const url = line.toString().trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      await withClient(url, async (client) => {
        expect((await client.callTool("greet", { name: "HTTP" })).content).toBe("Hello, HTTP!");
      });
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });
});
