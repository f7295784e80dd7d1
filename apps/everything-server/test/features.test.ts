// Every feature of the everything server, as a user of @mcpkit/client sees it, over the in-memory pair,
// a real stdio child process and real HTTP, in both protocol eras.
import type { ProgressParams } from "@mcpkit/jsonrpc";
import { fromBase64, McpError } from "@mcpkit/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG_SIGNATURE } from "../src/media.js";
import { Uri } from "../src/server.js";
import { type Connection, type Era, firstMatching, open, ROOTS, type Via } from "./harness.js";

const WAYS: Array<[Via, Era]> = [
  ["memory", "modern"],
  ["memory", "legacy"],
  ["stdio", "modern"],
  ["stdio", "legacy"],
  ["http", "modern"],
  ["http", "legacy"],
];

const startsWithBytes = (bytes: Uint8Array, prefix: Uint8Array) => prefix.every((b, i) => bytes[i] === b);

describe.each(WAYS)("everything server over %s, %s era", (via, era) => {
  let conn: Connection;

  beforeAll(async () => {
    conn = await open(via, era);
  });
  afterAll(async () => {
    await conn?.close();
  });

  it("negotiates the era and shows name, title, description, icons and instructions", () => {
    const { client } = conn;
    expect(client.era).toBe(era);
    expect(client.serverInfo).toMatchObject({
      name: "everything",
      title: "Everything (mcpkit)",
      description: "Every feature of @mcpkit/server in one server.",
    });
    expect(client.serverInfo?.icons?.[0]?.src).toMatch(/^data:image\/png;base64,/);
    expect(client.instructions).toContain("A demonstration server");
    expect(client.capabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    });
  });

  it("lists tools with zod and JSON Schema inputs, an outputSchema, annotations and icons", async () => {
    const tools = await conn.client.listTools({ refresh: true });
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of [
      "echo",
      "add",
      "get_image",
      "get_audio",
      "long_operation",
      "ask_user",
      "slow_task",
      "fail",
    ]) {
      expect(byName.has(name), name).toBe(true);
    }
    const echo = byName.get("echo");
    expect(echo?.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    expect(echo?.annotations).toMatchObject({
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(echo?.icons?.[0]).toMatchObject({ mimeType: "image/png" });
    expect(echo?.title).toBe("Echo");
    expect(byName.get("add")?.inputSchema).toMatchObject({ required: ["a", "b"] });
    expect(byName.get("add")?.outputSchema).toMatchObject({ properties: { sum: { type: "number" } } });
    // withInputSchema: the schema came from the handler.
    expect(byName.get("get_image")?.inputSchema).toMatchObject({
      properties: { caption: { type: "boolean" } },
    });
  });

  it("returns text content and validates zod input", async () => {
    const ok = await conn.client.callTool("echo", { message: "hi" });
    expect(ok).toMatchObject({ isError: false, content: "Echo: hi" });
    const bad = await conn.client.callTool("echo", { message: 42 });
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain("Invalid arguments for tool echo");
  });

  it("returns structured output that matches the outputSchema", async () => {
    const result = await conn.client.callTool("add", { a: 2, b: 40 });
    expect(result.structured).toEqual({ sum: 42 });
    expect(JSON.parse(result.content)).toEqual({ sum: 42 });
  });

  it("returns an image block holding a PNG", async () => {
    const result = await conn.client.callTool("get_image", {});
    const [img, caption] = result.parts;
    expect(img).toMatchObject({ type: "image", mimeType: "image/png" });
    if (img?.type !== "image") throw new Error("not an image");
    expect(startsWithBytes(fromBase64(img.data), PNG_SIGNATURE)).toBe(true);
    expect(caption).toMatchObject({ type: "text" });
    expect((await conn.client.callTool("get_image", { caption: false })).parts).toHaveLength(1);
  });

  it("returns an audio block holding a WAV", async () => {
    const [block] = (await conn.client.callTool("get_audio")).parts;
    expect(block).toMatchObject({ type: "audio", mimeType: "audio/wav" });
    if (block?.type !== "audio") throw new Error("not audio");
    const bytes = fromBase64(block.data);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("RIFF");
    expect(new TextDecoder().decode(bytes.subarray(8, 12))).toBe("WAVE");
  });

  it("returns resource_link blocks that can be read", async () => {
    const { parts } = await conn.client.callTool("get_resource_link");
    const links = parts.filter((p) => p.type === "resource_link");
    expect(links.map((l) => l.uri)).toEqual([Uri.readme, Uri.logo]);
    const read = await conn.client.readResource(links[0]?.uri ?? "");
    expect(read.contents[0]).toMatchObject({ uri: Uri.readme, mimeType: "text/markdown" });
  });

  it("returns an embedded resource block", async () => {
    const [block] = (await conn.client.callTool("get_embedded_resource")).parts;
    expect(block).toMatchObject({
      type: "resource",
      resource: { uri: Uri.readme, mimeType: "text/markdown" },
    });
    expect(JSON.stringify(block)).toContain("The everything server");
  });

  it("sends progress notifications to the caller", async () => {
    const seen: ProgressParams[] = [];
    const result = await conn.client.callTool(
      "long_operation",
      { steps: 3, stepMs: 5 },
      { onProgress: (p) => seen.push(p) },
    );
    expect(result.content).toBe("Finished 3 steps");
    expect(seen.map((p) => [p.progress, p.total, p.message])).toEqual([
      [1, 3, "step 1 of 3"],
      [2, 3, "step 2 of 3"],
      [3, 3, "step 3 of 3"],
    ]);
  });

  it("sends log messages at or above the client's level", async () => {
    await conn.client.setLogLevel("notice");
    conn.rec.logs.length = 0;
    const result = await conn.client.callTool("log_messages");
    expect(result.isError).toBe(false);
    // Notifications of a request are sent before its response, in order, on every transport here.
    expect(conn.rec.logs.map((l) => l.level)).toEqual(["notice", "warning", "error"]);
    expect(conn.rec.logs[0]).toMatchObject({
      logger: "everything",
      data: { message: "a notice message", era },
    });
  });

  it("asks the user through the client's elicitation handler (form mode)", async () => {
    conn.rec.elicitations.length = 0;
    conn.rec.elicitAnswer = { action: "accept", content: { name: "Ann", color: "blue" } };
    const accepted = await conn.client.callTool("ask_user");
    expect(accepted.content).toBe("Hello, Ann (likes blue)!");
    expect(accepted.structured).toEqual({ action: "accept", name: "Ann", color: "blue" });
    expect(conn.rec.elicitations).toHaveLength(1);
    // Legacy: a real server-to-client request; modern: an input_required round, same handler.
    expect(conn.rec.elicitations[0]?.era).toBe(era);
    expect(conn.rec.elicitations[0]?.params).toMatchObject({
      message: "Who are you?",
      requestedSchema: { required: ["name"] },
    });
    conn.rec.elicitAnswer = { action: "decline" };
    expect((await conn.client.callTool("ask_user")).content).toBe("The user chose to decline");
  });

  it("keeps handler state across a two-step form (modern: two input_required rounds)", async () => {
    conn.rec.elicitations.length = 0;
    conn.rec.elicitAnswer = { action: "accept", content: { name: "Bo", confirm: true } };
    const result = await conn.client.callTool("multi_step_form");
    const { ticket } = result.structured as { ticket: number };
    expect(result.structured).toEqual({ ticket, name: "Bo", confirmed: true });
    expect(conn.rec.elicitations.map((e) => e.params.message)).toEqual([
      `Ticket ${ticket}, step 1: what is your name?`,
      `Ticket ${ticket}, step 2: confirm the order for Bo?`,
    ]);
  });

  it("asks the client's model through its sampling handler", async () => {
    conn.rec.samplings.length = 0;
    const result = await conn.client.callTool("summarize", { text: "a long story" });
    const asked = "Summarize in one line: a long story";
    expect(result.content).toBe(`Summary from scripted-model-1: SUMMARY<${asked.length} chars>`);
    expect(conn.rec.samplings).toHaveLength(1);
    expect(conn.rec.samplings[0]?.era).toBe(era);
    expect(conn.rec.samplings[0]?.params).toMatchObject({
      maxTokens: 100,
      systemPrompt: "You are a concise summarizer.",
    });
  });

  it("asks the client for its roots", async () => {
    conn.rec.rootsCalls.length = 0;
    const result = await conn.client.callTool("list_roots");
    expect(result.content).toBe("project: file:///home/ann/project\nscratch: file:///tmp");
    expect(result.structured).toEqual({ roots: ROOTS });
    expect(conn.rec.rootsCalls).toEqual([era]);
  });

  it("runs slow_task as a task in the modern era (awaitTask), synchronously in legacy", async () => {
    if (era === "modern") {
      const created = (await conn.client.request("tools/call", {
        name: "slow_task",
        arguments: { steps: 2, stepMs: 10 },
      })) as { resultType?: string; taskId?: string; status?: string };
      expect(created.resultType).toBe("task");
      expect(typeof created.taskId).toBe("string");
      const statuses: string[] = [];
      const done = await conn.client.awaitTask(created.taskId ?? "", {
        onStatus: (t) => statuses.push(t.status),
      });
      expect(done.structured).toEqual({ steps: 2, ranAsTask: true });
      expect(statuses.at(-1)).toBe("completed");
    }
    // callTool hides the difference: it awaits the task when the server made one.
    const result = await conn.client.callTool("slow_task", { steps: 2, stepMs: 10 });
    expect(result.structured).toEqual({ steps: 2, ranAsTask: era === "modern" });
  });

  it("turns the rest of a manual-mode call into a task with ctx.startTask()", async () => {
    const result = await conn.client.callTool("prepare_then_task", { stepMs: 10 });
    expect(result.structured).toEqual({ ranAsTask: era === "modern" });
  });

  it("turns a throwing tool into an isError result with its message", async () => {
    const result = await conn.client.callTool("fail");
    expect(result).toMatchObject({ isError: true, content: "This tool always fails (on purpose)" });
  });

  it("answers an unknown tool with a JSON-RPC error", async () => {
    await expect(conn.client.callTool("no_such_tool")).rejects.toBeInstanceOf(McpError);
  });

  it("lists and reads static text and binary resources", async () => {
    const resources = await conn.client.listResources({ refresh: true });
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([Uri.readme, Uri.logo, Uri.counter, "everything://greetings/french"]),
    );
    expect(resources.find((r) => r.uri === Uri.logo)).toMatchObject({ mimeType: "image/png", name: "logo" });
    const readme = await conn.client.readResource(Uri.readme);
    expect(readme.contents[0]).toMatchObject({ uri: Uri.readme, mimeType: "text/markdown" });
    expect((readme.contents[0] as { text?: string }).text).toContain("# The everything server");
    const logo = (await conn.client.readResource(Uri.logo)).contents[0] as {
      blob?: string;
      mimeType?: string;
    };
    expect(logo.mimeType).toBe("image/png");
    expect(startsWithBytes(fromBase64(logo.blob ?? ""), PNG_SIGNATURE)).toBe(true);
  });

  it("reads a resource template and completes its variable", async () => {
    const templates = await conn.client.listResourceTemplates({ refresh: true });
    expect(templates.map((t) => t.uriTemplate)).toContain(Uri.greetingTemplate);
    const french = await conn.client.readResource("everything://greetings/french");
    expect(french.contents[0]).toMatchObject({
      uri: "everything://greetings/french",
      text: "Bonjour! (french)",
    });
    await expect(conn.client.readResource("everything://greetings/klingon")).rejects.toBeInstanceOf(McpError);
    const completion = await conn.client.complete(
      { type: "ref/resource", uri: Uri.greetingTemplate },
      { name: "language", value: "s" },
    );
    expect(completion.values).toEqual(["spanish", "swahili"]);
  });

  it("delivers resource updates to a subscriber", async () => {
    await using sub = conn.client.subscribe({ resourceSubscriptions: [Uri.counter] });
    await sub.acknowledged;
    const before = JSON.parse(
      ((await conn.client.readResource(Uri.counter)).contents[0] as { text: string }).text,
    ) as { value: number };
    const bumped = await conn.client.callTool("bump_counter");
    expect(bumped.structured).toEqual({ value: before.value + 1 });
    const update = await firstMatching(sub, (n) => n.method === "notifications/resources/updated");
    expect(update.params.uri).toBe(Uri.counter);
    const after = (await conn.client.readResource(Uri.counter)).contents[0] as { text: string };
    expect(JSON.parse(after.text)).toEqual({ value: before.value + 1 });
  });

  it("tells the client when a tool is registered or removed (list_changed)", async () => {
    await using sub = conn.client.subscribe({ toolsListChanged: true });
    await sub.acknowledged;
    expect((await conn.client.listTools({ refresh: true })).map((t) => t.name)).not.toContain("bonus_tool");
    expect(conn.client.toolsStale).toBe(false);
    expect((await conn.client.callTool("toggle_bonus_tool")).structured).toEqual({ bonusTool: true });
    await firstMatching(sub, (n) => n.method === "notifications/tools/list_changed");
    expect(conn.client.toolsStale).toBe(true);
    expect((await conn.client.listTools()).map((t) => t.name)).toContain("bonus_tool");
    expect(conn.client.toolsStale).toBe(false);
    expect((await conn.client.callTool("bonus_tool")).content).toBe("You found the bonus tool!");
    expect((await conn.client.callTool("toggle_bonus_tool")).structured).toEqual({ bonusTool: false });
    await firstMatching(sub, (n) => n.method === "notifications/tools/list_changed");
    expect((await conn.client.listTools()).map((t) => t.name)).not.toContain("bonus_tool");
  });

  it("lists prompts with arguments and gets them", async () => {
    const prompts = await conn.client.listPrompts({ refresh: true });
    const greeting = prompts.find((p) => p.name === "greeting");
    expect(greeting?.arguments).toEqual([
      { name: "name", description: "Who to greet", required: true },
      { name: "style", description: "One of casual, formal, pirate, poetic", required: false },
    ]);
    const codeReview = prompts.find((p) => p.name === "code_review");
    expect(codeReview?.arguments?.map((a) => [a.name, a.required ?? false])).toEqual([
      ["code", true],
      ["language", false],
    ]);
    const got = await conn.client.getPrompt("greeting", { name: "Ada", style: "pirate" });
    expect(got.messages).toEqual([
      { role: "user", content: { type: "text", text: "Write a pirate greeting for Ada." } },
    ]);
    const review = await conn.client.getPrompt("code_review", { code: "let x = 1", language: "rust" });
    expect(review.messages[0]?.content).toEqual({
      type: "text",
      text: "Please review this rust code:\n\nlet x = 1",
    });
    await expect(conn.client.getPrompt("greeting", {})).rejects.toBeInstanceOf(McpError);
  });

  it("completes prompt arguments", async () => {
    const style = await conn.client.complete(
      { type: "ref/prompt", name: "greeting" },
      { name: "style", value: "p" },
    );
    expect(style.values).toEqual(["pirate", "poetic"]);
    const name = await conn.client.complete(
      { type: "ref/prompt", name: "greeting" },
      { name: "name", value: "a" },
    );
    expect(name.values).toEqual(["Ada", "Alan"]);
  });

  it("gets a prompt that embeds a resource", async () => {
    const got = await conn.client.getPrompt("summarize_readme");
    expect(got.messages[0]).toMatchObject({
      role: "user",
      content: { type: "resource", resource: { uri: Uri.readme, mimeType: "text/markdown" } },
    });
    expect(got.messages[1]?.content).toEqual({
      type: "text",
      text: "Summarize the document above in one sentence.",
    });
  });
});
