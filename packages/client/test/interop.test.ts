// Interop with the real peers from the registry: servers built with the official SDK v1 and v2, and the
// reference servers (everything over stdio, Streamable HTTP and SSE; filesystem; memory).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type RunningHttpServer,
  serverEverythingEntry,
  serverFilesystemEntry,
  serverMemoryEntry,
  startServerEverythingHttp,
} from "@mcpkit/peers";
import { createSseClientTransport, createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { spawnStdioTransport } from "@mcpkit/transport-stdio";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import {
  type Client,
  type ClientOptions,
  createClient,
  type InputHandlers,
  type TransportSource,
} from "../src/index.js";
// @ts-expect-error a plain .mjs fixture, untyped
import { createV2Server } from "./fixtures/sdk-v2-factory.mjs";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A form answer: a value of the declared type for every property. */
function fillForm(schema: { properties?: Record<string, any> } | undefined): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [name, p] of Object.entries(schema?.properties ?? {})) {
    if (p.default !== undefined) out[name] = p.default;
    else if (Array.isArray(p.enum)) out[name] = p.enum[0];
    else if (Array.isArray(p.oneOf)) out[name] = p.oneOf[0].const;
    else if (p.type === "boolean") out[name] = true;
    else if (p.type === "number" || p.type === "integer") out[name] = p.minimum ?? 1;
    else if (p.type === "array") out[name] = [];
    else out[name] = name === "name" ? "Ada" : "x";
  }
  return out;
}

const handlers: InputHandlers = {
  elicitation: (params) => ({
    action: "accept",
    content: "requestedSchema" in params ? fillForm(params.requestedSchema) : {},
  }),
  sampling: () => ({ role: "assistant", content: { type: "text", text: "sampled" }, model: "test-model" }),
  roots: () => [{ uri: "file:///work", name: "work" }],
};

async function connect(source: TransportSource, options: Partial<ClientOptions> = {}): Promise<Client> {
  const client = createClient({ name: "interop", version: "1.0.0", handlers, ...options });
  cleanup.push(() => client.close());
  await client.connect(source);
  return client;
}

const stdio = (args: string[], env?: Record<string, string>) => () =>
  spawnStdioTransport({ command: process.execPath, args, stderr: "pipe", ...(env ? { env } : {}) });

/** The same checks against both SDK fixtures (they expose the same tools). */
async function exerciseSdkFixture(
  client: Client,
  expected: { era: string; readme: string; serverRequests?: boolean },
) {
  expect(client.era).toBe(expected.era);
  const tools = (await client.listTools()).map((t) => t.name);
  expect(tools).toEqual(expect.arrayContaining(["add", "progress", "ask"]));
  // structuredContent checked against the SDK's own outputSchema.
  expect((await client.callTool("add", { a: 2, b: 40 })).structured).toEqual({ sum: 42 });
  const steps: number[] = [];
  await client.callTool("progress", {}, { onProgress: (p) => steps.push(p.progress) });
  expect(steps).toEqual([1, 2, 3]);
  const asked = await client.callTool("ask");
  if (expected.serverRequests === false) {
    // SDK v2's stateless legacy HTTP fallback cannot send server-to-client requests: it says so as data.
    expect(asked.isError).toBe(true);
    expect(asked.content).toContain("per-request legacy serving cannot receive server-to-client requests");
  } else {
    expect(asked.content).toBe("Ada|sampled|file:///work");
  }
  expect((await client.listResources()).map((r) => r.uri)).toContain("fixture://readme");
  expect((await client.readResource("fixture://readme")).contents[0]).toMatchObject({
    text: expected.readme,
  });
  expect((await client.listPrompts()).map((p) => p.name)).toContain("greet");
  const prompt = await client.getPrompt("greet", { who: "SDK" });
  expect(prompt.messages[0]!.content).toEqual({ type: "text", text: "Hello, SDK!" });
  await client.ping();
}

describe("official SDK v1 (1.32.2) over stdio", () => {
  it("auto negotiation falls back to legacy and the whole API works", async () => {
    const client = await connect(stdio([path.join(fixtures, "sdk-v1-server.mjs")]));
    expect(client.serverInfo?.name).toBe("sdk-v1-fixture");
    await exerciseSdkFixture(client, { era: "legacy", readme: "v1 readme" });
  });
});

describe("official SDK v2 (2.4.0)", () => {
  it("over stdio, auto negotiation is modern", async () => {
    const client = await connect(stdio([path.join(fixtures, "sdk-v2-stdio.mjs")]));
    await exerciseSdkFixture(client, { era: "modern", readme: "v2 readme" });
  });

  it("over stdio, the legacy era works too", async () => {
    const client = await connect(stdio([path.join(fixtures, "sdk-v2-stdio.mjs")]), {
      versionNegotiation: "legacy",
    });
    await exerciseSdkFixture(client, { era: "legacy", readme: "v2 readme" });
  });

  async function v2Http(): Promise<string> {
    const handler = createMcpHandler(createV2Server);
    const server: HttpServer = createHttpServer(toNodeHandler(handler) as never);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanup.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  }

  it("over Streamable HTTP, auto negotiation is modern", async () => {
    const url = await v2Http();
    const client = await connect(() => createStreamableHttpClientTransport({ url }));
    await exerciseSdkFixture(client, { era: "modern", readme: "v2 readme" });
  });

  it("over Streamable HTTP, the legacy era works too", async () => {
    const url = await v2Http();
    const client = await connect(() => createStreamableHttpClientTransport({ url }), {
      versionNegotiation: "legacy",
    });
    await exerciseSdkFixture(client, { era: "legacy", readme: "v2 readme", serverRequests: false });
  });
});

/** server-everything's features, whichever transport carries them. */
async function exerciseEverything(client: Client) {
  expect(client.era).toBe("legacy");
  expect(client.serverInfo?.name).toContain("everything");
  const tools = await client.listTools();
  expect(tools.length).toBeGreaterThanOrEqual(10);
  expect((await client.callTool("echo", { message: "hi" })).content).toContain("hi");
  expect((await client.callTool("get-sum", { a: 2, b: 3 })).content).toContain("5");
  const structured = await client.callTool("get-structured-content", { location: "Chicago" });
  expect(structured.structured).toBeTypeOf("object");
  const steps: number[] = [];
  await client.callTool(
    "trigger-long-running-operation",
    { duration: 0.3, steps: 3 },
    { onProgress: (p) => steps.push(p.progress) },
  );
  expect(steps.length).toBe(3);
  expect(
    (await client.callTool("trigger-sampling-request", { prompt: "hello", maxTokens: 5 })).content,
  ).toContain("sampled");
  const elicited = await client.callTool("trigger-elicitation-request", {});
  expect(elicited.isError).toBe(false);
  expect(elicited.content).toContain("accept");
  expect((await client.callTool("get-roots-list", {})).content).toContain("file:///work");
  const resources = await client.listResources();
  expect(resources.length).toBeGreaterThan(0);
  const read = await client.readResource(resources[0]!.uri);
  expect(read.contents.length).toBeGreaterThan(0);
  expect((await client.listResourceTemplates()).length).toBeGreaterThan(0);
  const prompts = await client.listPrompts();
  expect(prompts.map((p) => p.name)).toContain("args-prompt");
  const prompt = await client.getPrompt("args-prompt", { city: "Paris" });
  expect(JSON.stringify(prompt.messages)).toContain("Paris");
  const completion = await client.complete(
    { type: "ref/prompt", name: "completable-prompt" },
    { name: "department", value: "" },
  );
  expect(Array.isArray(completion.values)).toBe(true);
  await client.ping();
}

describe("server-everything", () => {
  it("over stdio", async () => {
    const client = await connect(stdio([serverEverythingEntry(), "stdio"]));
    await exerciseEverything(client);
  });

  it("over Streamable HTTP (the modern probe falls back to initialize)", async () => {
    const server: RunningHttpServer = await startServerEverythingHttp({ mode: "streamableHttp" });
    cleanup.push(() => server.close());
    const client = await connect(() => createStreamableHttpClientTransport({ url: server.url }));
    await exerciseEverything(client);
  });

  it("over the 2024-11-05 HTTP+SSE transport, reached by the fallback", async () => {
    const server: RunningHttpServer = await startServerEverythingHttp({ mode: "sse" });
    cleanup.push(() => server.close());
    const client = await connect({
      modern: () => createStreamableHttpClientTransport({ url: server.url }),
      sse: () => createSseClientTransport({ url: server.url }),
    });
    expect((client.transport as unknown as { endpoint?: URL }).endpoint).toBeDefined();
    await exerciseEverything(client);
  });
});

describe("server-filesystem and server-memory over stdio", () => {
  it("server-filesystem lists, reads and writes files in its allowed directory", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcpkit-fs-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(path.join(dir, "hello.txt"), "hello from disk");
    // The server narrows its allowed directories to the client's roots: offer the folder as the root.
    const client = await connect(stdio([serverFilesystemEntry(), dir]), {
      handlers: { ...handlers, roots: () => [{ uri: pathToFileURL(dir).href, name: "tmp" }] },
    });
    const tools = (await client.listTools()).map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["read_text_file", "write_file", "list_directory"]));
    expect(
      (await client.callTool("read_text_file", { path: path.join(dir, "hello.txt") })).content,
    ).toContain("hello from disk");
    await client.callTool("write_file", { path: path.join(dir, "new.txt"), content: "written" });
    expect((await client.callTool("list_directory", { path: dir })).content).toContain("new.txt");
    const outside = await client.callTool("read_text_file", { path: "/etc/hostname" });
    expect(outside.isError).toBe(true);
  });

  it("server-memory stores and reads a knowledge graph", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcpkit-memory-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const client = await connect(
      stdio([serverMemoryEntry()], { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") }),
    );
    expect((await client.listTools()).map((t) => t.name)).toEqual(
      expect.arrayContaining(["create_entities", "read_graph"]),
    );
    await client.callTool("create_entities", {
      entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }],
    });
    const graph = await client.callTool("read_graph", {});
    expect(graph.content).toContain("Ada");
    expect(graph.content).toContain("wrote the first program");
  });
});
