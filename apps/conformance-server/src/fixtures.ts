import { McpError } from "@mcpkit/protocol";
import { createServer, type HandlerContext, type Registered, type Server } from "@mcpkit/server";
import { registerConformanceSkills } from "./skills.js";

// Every fixture name the official conformance suite (0.2.0-alpha.12) expects, in both eras.
// The suite itself lists them and what each one must do (its `list` command).

/** A 1×1 red PNG. */
export const RED_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A minimal WAV: 44-byte header, one 8-bit mono sample at 8 kHz. */
export const TINY_WAV = "UklGRiUAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQEAAACA";

const JSON_SCHEMA_2020_12 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

const NAME_FORM = {
  type: "object" as const,
  properties: { name: { type: "string" as const } },
  required: ["name"],
};

/** Waits `ms`, or rejects with the abort reason when `signal` aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function describeElicit(result: { action: string; content?: unknown }): string {
  return `action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
}

/** Builds the fixture server (no transport: the caller connects one). */
export function buildConformanceServer(): Server {
  const server = createServer({
    name: "mcpkit-conformance-server",
    version: "0.0.0",
    title: "mcpkit conformance fixtures",
    instructions: "Fixture server for the official MCP conformance suite.",
    tasks: { pollIntervalMs: 200 },
    skills: { directoryRead: true },
  });

  // ---- content tools (both eras) ------------------------------------------------------------------
  server.registerTool(
    "test_simple_text",
    { description: "Returns simple text content" },
    () => "This is a simple text response for testing.",
  );
  server.registerTool("test_image_content", { description: "Returns image content (PNG)" }, () => [
    { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
  ]);
  server.registerTool("test_audio_content", { description: "Returns audio content (WAV)" }, () => [
    { type: "audio", data: TINY_WAV, mimeType: "audio/wav" },
  ]);
  server.registerTool("test_embedded_resource", { description: "Returns an embedded resource" }, () => [
    {
      type: "resource",
      resource: {
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      },
    },
  ]);
  server.registerTool(
    "test_multiple_content_types",
    { description: "Returns text, image and resource content" },
    () => [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
      {
        type: "resource",
        resource: {
          uri: "test://mixed-content-resource",
          mimeType: "application/json",
          text: '{"test":"data","value":123}',
        },
      },
    ],
  );
  server.registerTool("test_error_handling", { description: "Always fails" }, () => {
    throw new Error("This tool intentionally returns an error for testing");
  });
  server.registerTool(
    "test_tool_with_progress",
    { description: "Reports progress 0, 50, 100 of 100" },
    async (_args, ctx) => {
      await ctx.progress(0, 100);
      await sleep(50, ctx.signal);
      await ctx.progress(50, 100);
      await sleep(50, ctx.signal);
      await ctx.progress(100, 100);
      return "Progress test completed";
    },
  );
  server.registerTool(
    "test_tool_with_logging",
    { description: "Sends three info log messages" },
    async (_args, ctx) => {
      await ctx.log("info", "Tool execution started");
      await sleep(50, ctx.signal);
      await ctx.log("info", "Tool processing data");
      await sleep(50, ctx.signal);
      await ctx.log("info", "Tool execution completed");
      return "Logging test completed";
    },
  );
  server.registerTool(
    "test_sampling",
    {
      description: "Asks the client's model for a completion",
      inputSchema: {
        type: "object",
        properties: { prompt: { type: "string", description: "The prompt to send" } },
        required: ["prompt"],
      },
    },
    async (args, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: String(args.prompt) } }],
        maxTokens: 100,
      });
      const content = Array.isArray(result.content) ? result.content[0] : result.content;
      const text = content && content.type === "text" ? content.text : JSON.stringify(content);
      return `LLM response: ${text}`;
    },
  );
  server.registerTool(
    "test_elicitation",
    {
      description: "Asks the user for input",
      inputSchema: {
        type: "object",
        properties: { message: { type: "string", description: "The message to show" } },
        required: ["message"],
      },
    },
    async (args, ctx) => {
      const result = await ctx.elicit({
        message: String(args.message),
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return `User response: ${describeElicit(result)}`;
    },
  );
  server.registerTool(
    "test_elicitation_sep1034_defaults",
    { description: "Elicitation with defaults (SEP-1034)" },
    async (_args, ctx) => {
      const result = await ctx.elicit({
        message: "Please review and update the form fields with defaults",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: {
              type: "string",
              description: "User status",
              enum: ["active", "inactive", "pending"],
              default: "active",
            },
            verified: { type: "boolean", description: "Verification status", default: true },
          },
        },
      });
      return `Elicitation completed: ${describeElicit(result)}`;
    },
  );
  server.registerTool(
    "test_elicitation_sep1330_enums",
    { description: "Elicitation with the five enum forms (SEP-1330)" },
    async (_args, ctx) => {
      const result = await ctx.elicit({
        message: "Please select options from the enum fields",
        requestedSchema: {
          type: "object",
          properties: {
            untitledSingle: {
              type: "string",
              description: "Untitled single-select",
              enum: ["option1", "option2", "option3"],
            },
            titledSingle: {
              type: "string",
              description: "Titled single-select",
              oneOf: [
                { const: "value1", title: "First Option" },
                { const: "value2", title: "Second Option" },
                { const: "value3", title: "Third Option" },
              ],
            },
            legacyEnum: {
              type: "string",
              description: "Legacy titled enum",
              enum: ["opt1", "opt2", "opt3"],
              enumNames: ["Option One", "Option Two", "Option Three"],
            },
            untitledMulti: {
              type: "array",
              description: "Untitled multi-select",
              items: { type: "string", enum: ["option1", "option2", "option3"] },
            },
            titledMulti: {
              type: "array",
              description: "Titled multi-select",
              items: {
                anyOf: [
                  { const: "value1", title: "First Choice" },
                  { const: "value2", title: "Second Choice" },
                  { const: "value3", title: "Third Choice" },
                ],
              },
            },
          },
        },
      } as never);
      return `Elicitation completed: ${describeElicit(result)}`;
    },
  );
  server.registerTool(
    "test_reconnection",
    { description: "Closes the SSE stream mid-call (SEP-1699 polling)" },
    async (_args, ctx) => {
      const closeSseStream = (ctx.transportInfo as { closeSseStream?: () => void } | undefined)
        ?.closeSseStream;
      closeSseStream?.();
      await sleep(100, ctx.signal);
      return "Reconnection test completed successfully";
    },
  );
  server.registerTool(
    "json_schema_2020_12_tool",
    { description: "Tool with JSON Schema 2020-12 features", inputSchema: JSON_SCHEMA_2020_12 },
    (args) => `Received: ${JSON.stringify(args)}`,
  );
  server.registerTool(
    "test_x_mcp_header",
    {
      description: "Mirrors the region argument into the Mcp-Param-Region header",
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", description: "Region", "x-mcp-header": "Region" } },
        required: ["region"],
      },
    },
    (args) => `Region: ${String(args.region)}`,
  );

  // ---- 2026-07-28 fixtures ------------------------------------------------------------------------
  server.registerTool(
    "test_missing_capability",
    { description: "Needs the sampling capability" },
    async (_args, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: "ping" } }],
        maxTokens: 10,
      });
      return `Sampled: ${JSON.stringify(result.content)}`;
    },
  );
  server.registerTool(
    "test_streaming_elicitation",
    { description: "Asks for input; never sends a request on the stream" },
    async (_args, ctx) => {
      await ctx.progress(0, 1);
      const result = await ctx.elicit({
        message: "Please confirm",
        requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
      });
      return `Confirmed: ${result.action}`;
    },
  );
  server.registerTool(
    "test_logging_tool",
    { description: "Logs only when _meta asks for a level" },
    async (_args, ctx) => {
      await ctx.log("info", "first");
      await ctx.log("warning", "second");
      await ctx.log("error", "third");
      return "Logged";
    },
  );
  let dynamicTool: Registered | undefined;
  server.registerTool(
    "test_trigger_tool_change",
    { description: "Adds or removes test_dynamic_tool" },
    () => {
      if (dynamicTool) {
        dynamicTool.remove();
        dynamicTool = undefined;
        return "Removed test_dynamic_tool";
      }
      dynamicTool = server.registerTool(
        "test_dynamic_tool",
        { description: "Added at run time" },
        () => "dynamic",
      );
      return "Added test_dynamic_tool";
    },
  );
  let dynamicPrompt: Registered | undefined;
  server.registerTool(
    "test_trigger_prompt_change",
    { description: "Adds or removes test_dynamic_prompt" },
    () => {
      if (dynamicPrompt) {
        dynamicPrompt.remove();
        dynamicPrompt = undefined;
        return "Removed test_dynamic_prompt";
      }
      dynamicPrompt = server.registerPrompt(
        "test_dynamic_prompt",
        { description: "Added at run time" },
        () => "dynamic",
      );
      return "Added test_dynamic_prompt";
    },
  );
  server.registerTool(
    "test_input_required_result_elicitation",
    { description: "MRTR: asks for a name" },
    async (_args, ctx) => {
      const result = await ctx.elicit(
        { message: "What is your name?", requestedSchema: NAME_FORM },
        { key: "user_name" },
      );
      return `Hello, ${result.action === "accept" ? String(result.content?.name) : "stranger"}!`;
    },
  );
  server.registerTool(
    "test_input_required_result_sampling",
    { description: "MRTR: asks the model" },
    async (_args, ctx) => {
      const result = await ctx.sample(
        {
          messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
          maxTokens: 100,
        },
        { key: "capital_question" },
      );
      const content = Array.isArray(result.content) ? result.content[0] : result.content;
      return `Model said: ${content && content.type === "text" ? content.text : JSON.stringify(content)}`;
    },
  );
  server.registerTool(
    "test_input_required_result_list_roots",
    { description: "MRTR: asks for roots" },
    async (_args, ctx) => {
      const result = await ctx.listRoots({ key: "client_roots" });
      return `Roots: ${result.roots.map((r) => r.uri).join(", ")}`;
    },
  );
  server.registerTool(
    "test_input_required_result_request_state",
    { description: "MRTR: round-trips requestState" },
    async (_args, ctx) => {
      const fromEarlierRound = ctx.state.get("issued") !== undefined;
      if (!fromEarlierRound) ctx.state.set("issued", new Date().toISOString());
      const result = await ctx.elicit(
        {
          message: "Please confirm",
          requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
        },
        { key: "confirm" },
      );
      return fromEarlierRound ? `state-ok: ${result.action}` : `state-missing: ${result.action}`;
    },
  );
  server.registerTool(
    "test_input_required_result_multiple_inputs",
    { description: "MRTR: three input requests at once" },
    async (_args, ctx) => {
      const [name, greeting, roots] = await Promise.all([
        ctx.elicit({ message: "What is your name?", requestedSchema: NAME_FORM }, { key: "user_name" }),
        ctx.sample(
          {
            messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
            maxTokens: 50,
          },
          { key: "greeting" },
        ),
        ctx.listRoots({ key: "client_roots" }),
      ]);
      return `name=${String(name.content?.name)}, greeting=${JSON.stringify(greeting.content)}, roots=${roots.roots.length}`;
    },
  );
  server.registerTool(
    "test_input_required_result_multi_round",
    { description: "MRTR: two rounds of input" },
    async (_args, ctx) => {
      const first = await ctx.elicit(
        { message: "Step 1: What is your name?", requestedSchema: NAME_FORM },
        { key: "step1" },
      );
      const second = await ctx.elicit(
        {
          message: "Step 2: What is your favorite color?",
          requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
        },
        { key: "step2" },
      );
      return `${String(first.content?.name)} likes ${String(second.content?.color)}`;
    },
  );
  server.registerTool(
    "test_input_required_result_tampered_state",
    { description: "MRTR: integrity-protected requestState" },
    async (_args, ctx) => {
      const result = await ctx.elicit(
        {
          message: "Please confirm",
          requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
        },
        { key: "confirm" },
      );
      return `Confirmed: ${result.action}`;
    },
  );
  server.registerTool(
    "test_input_required_result_capabilities",
    { description: "MRTR: asks only for what the client declared" },
    async (_args, ctx) => {
      const caps = ctx.client.capabilities;
      const asks: Array<Promise<unknown>> = [];
      if (caps.elicitation)
        asks.push(
          ctx.elicit({ message: "What is your name?", requestedSchema: NAME_FORM }, { key: "user_name" }),
        );
      if (caps.sampling) {
        asks.push(
          ctx.sample(
            { messages: [{ role: "user", content: { type: "text", text: "Say hi" } }], maxTokens: 20 },
            { key: "greeting" },
          ),
        );
      }
      if (caps.roots) asks.push(ctx.listRoots({ key: "client_roots" }));
      const answers = await Promise.all(asks);
      return `Received ${answers.length} answer(s)`;
    },
  );

  // ---- tasks extension fixtures -------------------------------------------------------------------
  server.registerTool(
    "greet",
    {
      description: "Sync-only greeting",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    (args) => `Hello, ${String(args.name)}!`,
  );
  server.registerTool(
    "slow_compute",
    {
      description: "Sleeps for `seconds`, then answers; runs as a task",
      inputSchema: {
        type: "object",
        properties: { seconds: { type: "number", minimum: 0 }, label: { type: "string" } },
        required: ["seconds"],
      },
      taskSupport: "optional",
    },
    async (args, ctx) => {
      await sleep(Number(args.seconds) * 1000, ctx.signal);
      return `Computed ${String(args.label ?? "result")} after ${String(args.seconds)}s`;
    },
  );
  server.registerTool(
    "failing_job",
    { description: "Fails with a tool error after ~1 s", taskSupport: "required" },
    async (_args, ctx) => {
      await sleep(1000, ctx.signal);
      throw new Error("failing_job failed on purpose");
    },
  );
  server.registerTool(
    "protocol_error_job",
    { description: "Fails with a protocol error", taskSupport: "optional" },
    async (_args, ctx) => {
      await sleep(200, ctx.signal);
      throw new McpError(-32603, "Internal error: protocol_error_job failed on purpose");
    },
  );
  server.registerTool(
    "confirm_delete",
    {
      description: "Asks for confirmation, then deletes (pretend)",
      inputSchema: { type: "object", properties: { filename: { type: "string" } }, required: ["filename"] },
      taskSupport: "optional",
    },
    async (args, ctx) => {
      const result = await ctx.elicit({
        message: `Delete ${String(args.filename)}?`,
        requestedSchema: {
          type: "object",
          properties: { confirm: { type: "boolean" } },
          required: ["confirm"],
        },
      });
      return result.action === "accept" && result.content?.confirm === true
        ? `Deleted ${String(args.filename)}`
        : "Not deleted";
    },
  );
  server.registerTool(
    "multi_input",
    { description: "Asks two questions at once", taskSupport: "optional" },
    async (_args, ctx) => {
      const form = {
        type: "object" as const,
        properties: { name: { type: "string" as const }, confirm: { type: "boolean" as const } },
      };
      const [a, b] = await Promise.all([
        ctx.elicit({ message: "First?", requestedSchema: form }),
        ctx.elicit({ message: "Second?", requestedSchema: form }),
      ]);
      return `first=${String(a.content?.name)}, second=${String(b.content?.name)}`;
    },
  );
  server.registerTool(
    "test_tool_with_task",
    { description: "MRTR first, then a task", taskSupport: "required", taskMode: "manual" },
    async (_args, ctx: HandlerContext) => {
      const result = await ctx.elicit(
        { message: "What is your name?", requestedSchema: NAME_FORM },
        { key: "user_name" },
      );
      await ctx.startTask();
      await sleep(200, ctx.signal);
      return `Hello, ${String(result.content?.name)}! (finished as a task)`;
    },
  );

  // ---- resources ----------------------------------------------------------------------------------
  server.registerResource(
    "test://static-text",
    { name: "static-text", description: "A static text resource", mimeType: "text/plain" },
    () => "This is the content of the static text resource.",
  );
  server.registerResource(
    "test://static-binary",
    { name: "static-binary", description: "A static binary resource (PNG)", mimeType: "image/png" },
    () => ({ blob: RED_PIXEL_PNG }),
  );
  server.registerResource(
    "test://watched-resource",
    { name: "watched-resource", description: "A resource that can be subscribed to", mimeType: "text/plain" },
    () => "Watched resource content",
  );
  server.registerResourceTemplate(
    "test://template/{id}/data",
    {
      name: "template-data",
      description: "A resource template with an id",
      mimeType: "application/json",
      complete: { id: (value) => ["123", "456", "789"].filter((id) => id.startsWith(value)) },
    },
    (_uri, variables) =>
      JSON.stringify({ id: variables.id, templateTest: true, data: `Data for ID: ${variables.id}` }),
  );

  // ---- prompts ------------------------------------------------------------------------------------
  server.registerPrompt(
    "test_simple_prompt",
    { description: "A simple prompt without arguments" },
    () => "This is a simple prompt for testing.",
  );
  server.registerPrompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with two arguments",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
      complete: { arg1: (value) => ["paris", "park", "party"].filter((v) => v.startsWith(value)) },
    },
    (args) => `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`,
  );
  server.registerPrompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt with an embedded resource",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    },
    (args) => [
      {
        role: "user",
        content: {
          type: "resource",
          resource: {
            uri: String(args.resourceUri),
            mimeType: "text/plain",
            text: "Embedded resource content for testing.",
          },
        },
      },
      { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
    ],
  );
  server.registerPrompt("test_prompt_with_image", { description: "A prompt with an image" }, () => [
    { role: "user", content: { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" } },
    { role: "user", content: { type: "text", text: "Please analyze the image above." } },
  ]);
  server.registerPrompt(
    "test_input_required_result_prompt",
    { description: "MRTR on prompts/get" },
    async (_args, ctx) => {
      const result = await ctx.elicit(
        {
          message: "What context should the prompt use?",
          requestedSchema: {
            type: "object",
            properties: { context: { type: "string" } },
            required: ["context"],
          },
        },
        { key: "user_context" },
      );
      return `Use this context: ${String(result.content?.context)}`;
    },
  );

  registerConformanceSkills(server);
  return server;
}
