// The everything server: every feature of @mcpkit/server in one registry, served over stdio or HTTP by
// main.ts and built in-process by the tests, the agent demo and the bench.
import type { HtmlSource } from "@mcpkit/apps";
import { audio, embeddedResource, type Icon, image, resourceLink, text, toBase64 } from "@mcpkit/protocol";
import {
  createServer,
  type Registered,
  type Server,
  type ServerOptions,
  withInputSchema,
} from "@mcpkit/server";
import { z } from "zod";
import { registerCounterApp } from "./app.js";
import { makePng, makeWav } from "./media.js";

/** Options of {@link createEverythingServer}. */
export interface EverythingServerOptions {
  /**
   * How often the `everything://counter` resource ticks by itself, in ms, telling its subscribers each
   * time (default 5000; 0 turns the timer off, leaving only the `bump_counter` tool).
   */
  tickMs?: number;
  /** How often task clients are told to poll a `slow_task` (default 100 ms). */
  taskPollIntervalMs?: number;
  /** OpenTelemetry, as `createServer` takes it (a bundled process passes `{ api }`). */
  telemetry?: ServerOptions["telemetry"];
  /** The counter app's view (MCP Apps); default the view written by hand (src/view/hand-view.ts). */
  appHtml?: HtmlSource;
}

/** An everything server: an `@mcpkit/server` {@link Server} whose `close()` also stops its timer. */
export interface EverythingServer extends Server {
  /** The current value of the `everything://counter` resource. */
  readonly counter: number;
}

/** The URIs of the server's static resources. */
export const Uri = {
  readme: "everything://static/readme",
  logo: "everything://static/logo.png",
  counter: "everything://counter",
  greetingTemplate: "everything://greetings/{language}",
} as const;

/** Languages of the `everything://greetings/{language}` template (and its completions). */
export const GREETINGS: Readonly<Record<string, string>> = {
  english: "Hello",
  esperanto: "Saluton",
  french: "Bonjour",
  german: "Hallo",
  italian: "Ciao",
  japanese: "Konnichiwa",
  spanish: "Hola",
  swahili: "Jambo",
};

/** Styles of the `greeting` prompt (and its completions). */
export const STYLES = ["casual", "formal", "pirate", "poetic"] as const;

const PNG = makePng(4);
const WAV = makeWav(440, 100);
/** The icon of the server and of several tools: the generated PNG as a data URI. */
const ICON: Icon = { src: `data:image/png;base64,${toBase64(PNG)}`, mimeType: "image/png", sizes: ["4x4"] };

const README = `# The everything server

An example MCP server built with mcpkit that shows every feature of \`@mcpkit/server\`.
Call \`bump_counter\` and watch \`${Uri.counter}\` change; call \`toggle_bonus_tool\` and watch the tool list change.
`;

const startsWith = (values: readonly string[], prefix: string) =>
  values.filter((v) => v.toLowerCase().startsWith(prefix.toLowerCase()));

/** Waits `ms`, rejecting with the signal's reason when it is aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Builds the everything server. Nothing runs until a transport is connected (`server.connect(t)`, or
 * `serve(server, …)` from `mcpkit`), except the counter's timer, which `close()` stops. Each call builds
 * an independent server.
 */
export function createEverythingServer(options: EverythingServerOptions = {}): EverythingServer {
  const server = createServer({
    name: "everything",
    version: "0.0.0",
    title: "Everything (mcpkit)",
    description: "Every feature of @mcpkit/server in one server.",
    websiteUrl: "https://github.com/mcpkit/mcpkit",
    icons: [ICON],
    instructions:
      "A demonstration server. Tools show each content type, progress, logging, elicitation, sampling, " +
      "roots and tasks; resources show text, binary, templates and subscriptions; prompts show arguments, " +
      "completions and embedded resources.",
    tasks: { pollIntervalMs: options.taskPollIntervalMs ?? 100 },
    ...(options.telemetry !== undefined ? { telemetry: options.telemetry } : {}),
  });

  let counter = 0;
  const bump = () => {
    counter += 1;
    server.notifyResourceUpdated(Uri.counter);
    return counter;
  };

  // ---- tools: content types ----

  server.registerTool(
    "echo",
    {
      title: "Echo",
      description: "Echoes the message back as text (input schema written with zod 4).",
      inputSchema: z.object({ message: z.string().describe("What to echo") }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      icons: [ICON],
    },
    ({ message }) => `Echo: ${message}`,
  );

  server.registerTool(
    "add",
    {
      title: "Add two numbers",
      description:
        "Adds a and b (plain JSON Schema input) and returns structured output with an outputSchema.",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        properties: { sum: { type: "number" } },
        required: ["sum"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) => ({ sum: (args.a as number) + (args.b as number) }),
  );

  server.registerTool(
    "get_image",
    {
      title: "Get an image",
      description: "Returns a tiny PNG generated in code, as an image content block.",
      annotations: { readOnlyHint: true },
      icons: [ICON],
    },
    withInputSchema(
      z.object({ caption: z.boolean().default(true).describe("Add a text caption") }),
      ({ caption }) => [
        image(toBase64(PNG), "image/png"),
        ...(caption ? [text(`A ${PNG.length}-byte 4x4 PNG`)] : []),
      ],
    ),
  );

  server.registerTool(
    "get_audio",
    {
      title: "Get a sound",
      description: "Returns a 100 ms 440 Hz tone generated in code, as an audio content block (WAV).",
      annotations: { readOnlyHint: true },
    },
    () => [audio(toBase64(WAV), "audio/wav")],
  );

  server.registerTool(
    "get_resource_link",
    {
      title: "Link to resources",
      description: "Returns resource_link blocks pointing at the readme and the logo.",
      annotations: { readOnlyHint: true },
    },
    () => [
      text("Two resources you can read:"),
      resourceLink({ uri: Uri.readme, name: "readme", mimeType: "text/markdown" }),
      resourceLink({ uri: Uri.logo, name: "logo", mimeType: "image/png" }),
    ],
  );

  server.registerTool(
    "get_embedded_resource",
    {
      title: "Embed a resource",
      description: "Returns the readme embedded in the result, as a resource content block.",
      annotations: { readOnlyHint: true },
    },
    () => [embeddedResource({ uri: Uri.readme, mimeType: "text/markdown", text: README })],
  );

  // ---- tools: notifications and input ----

  server.registerTool(
    "long_operation",
    {
      title: "Long operation",
      description: "Works through steps, sending a progress notification after each.",
      inputSchema: {
        type: "object",
        properties: {
          steps: { type: "integer", minimum: 1, maximum: 100, default: 5 },
          stepMs: { type: "integer", minimum: 0, maximum: 10_000, default: 20 },
        },
      },
    },
    async (args, ctx) => {
      const steps = (args.steps as number | undefined) ?? 5;
      const stepMs = (args.stepMs as number | undefined) ?? 20;
      for (let i = 1; i <= steps; i++) {
        await sleep(stepMs, ctx.signal);
        await ctx.progress(i, steps, `step ${i} of ${steps}`);
      }
      return `Finished ${steps} steps`;
    },
  );

  server.registerTool(
    "log_messages",
    {
      title: "Log messages",
      description: "Sends a log message at each of debug, info, notice, warning and error.",
      annotations: { readOnlyHint: true },
    },
    async (_args, ctx) => {
      const levels = ["debug", "info", "notice", "warning", "error"] as const;
      for (const level of levels) {
        await ctx.log(level, { message: `a ${level} message`, era: ctx.era }, "everything");
      }
      return `Sent ${levels.length} log messages (the client's log level filters them)`;
    },
  );

  server.registerTool(
    "ask_user",
    {
      title: "Ask the user",
      description: "Asks the user for their name and favourite colour (form-mode elicitation).",
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: "form",
        message: "Who are you?",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", title: "Name", minLength: 1 },
            color: { type: "string", title: "Favourite colour", enum: ["red", "green", "blue"] },
          },
          required: ["name"],
        },
      });
      if (answer.action !== "accept") return `The user chose to ${answer.action}`;
      const name = String(answer.content?.name ?? "");
      const color = answer.content?.color;
      return {
        content: [text(`Hello, ${name}${color === undefined ? "" : ` (likes ${String(color)})`}!`)],
        structuredContent: { action: answer.action, ...answer.content },
      };
    },
  );

  let tickets = 0;
  server.registerTool(
    "multi_step_form",
    {
      title: "A two-step form",
      description:
        "Asks two questions in a row. In the modern era each answer is a new input_required round that " +
        "re-runs the handler; ctx.state keeps the ticket number across the rounds.",
    },
    async (_args, ctx) => {
      let ticket = ctx.state.get("ticket");
      if (typeof ticket !== "number") {
        ticket = ++tickets;
        ctx.state.set("ticket", ticket);
      }
      const first = await ctx.elicit(
        {
          message: `Ticket ${ticket}, step 1: what is your name?`,
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
        { key: "name" },
      );
      if (first.action !== "accept") return `Ticket ${ticket} abandoned at step 1`;
      const name = String(first.content?.name ?? "");
      const second = await ctx.elicit(
        {
          message: `Ticket ${ticket}, step 2: confirm the order for ${name}?`,
          requestedSchema: {
            type: "object",
            properties: { confirm: { type: "boolean" } },
            required: ["confirm"],
          },
        },
        { key: "confirm" },
      );
      const confirmed = second.action === "accept" && second.content?.confirm === true;
      return { ticket, name, confirmed };
    },
  );

  server.registerTool(
    "summarize",
    {
      title: "Summarize with the client's model",
      description: "Asks the client's model (sampling) to summarize the text.",
      inputSchema: z.object({ text: z.string() }),
      requiredClientCapabilities: { sampling: {} },
    },
    async (args, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: `Summarize in one line: ${args.text}` } }],
        systemPrompt: "You are a concise summarizer.",
        maxTokens: 100,
      });
      const blocks = Array.isArray(result.content) ? result.content : [result.content];
      const summary = blocks.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join(" ");
      return `Summary from ${result.model}: ${summary}`;
    },
  );

  server.registerTool(
    "list_roots",
    {
      title: "List the client's roots",
      description: "Asks the client for its roots and lists them.",
      annotations: { readOnlyHint: true },
    },
    async (_args, ctx) => {
      const { roots } = await ctx.listRoots();
      const lines = roots.map((r) => `${r.name ?? "(unnamed)"}: ${r.uri}`);
      return {
        content: [text(roots.length === 0 ? "The client has no roots" : lines.join("\n"))],
        structuredContent: { roots: roots.map((r) => ({ uri: r.uri, name: r.name ?? null })) },
      };
    },
  );

  server.registerTool(
    "slow_task",
    {
      title: "A long-running task",
      description:
        "Runs for steps × stepMs. With a client that declares the tasks extension the call returns a task " +
        "at once and the result is polled; otherwise it runs synchronously.",
      inputSchema: z.object({
        steps: z.number().int().min(1).max(100).default(3),
        stepMs: z.number().int().min(0).max(10_000).default(50),
      }),
      outputSchema: z.object({ steps: z.number(), ranAsTask: z.boolean() }),
      taskSupport: "optional",
    },
    async ({ steps, stepMs }, ctx) => {
      for (let i = 1; i <= steps; i++) {
        await sleep(stepMs, ctx.signal);
        await ctx.progress(i, steps);
      }
      return { steps, ranAsTask: ctx.task !== undefined };
    },
  );

  server.registerTool(
    "prepare_then_task",
    {
      title: "Checks first, then runs as a task",
      description:
        "taskMode manual: the handler validates synchronously, then ctx.startTask() turns the rest of the " +
        "call into a task (when the client declared the tasks extension).",
      inputSchema: z.object({ stepMs: z.number().int().min(0).max(10_000).default(50) }),
      outputSchema: z.object({ ranAsTask: z.boolean() }),
      taskSupport: "optional",
      taskMode: "manual",
    },
    async ({ stepMs }, ctx) => {
      const ranAsTask = await ctx.startTask();
      await sleep(stepMs, ctx.signal);
      return { ranAsTask };
    },
  );

  server.registerTool(
    "fail",
    {
      title: "Always fails",
      description: "Throws; the client receives a result with isError: true and the message.",
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    () => {
      throw new Error("This tool always fails (on purpose)");
    },
  );

  // ---- tools that change the server ----

  server.registerTool(
    "bump_counter",
    {
      title: "Bump the counter",
      description: `Increments ${Uri.counter}; its subscribers are told it changed.`,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    () => ({ value: bump() }),
  );

  let bonus: Registered | undefined;
  server.registerTool(
    "toggle_bonus_tool",
    {
      title: "Toggle the bonus tool",
      description: "Registers bonus_tool, or removes it if present; clients are told the tool list changed.",
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    () => {
      if (bonus) {
        bonus.remove();
        bonus = undefined;
        return { bonusTool: false };
      }
      bonus = server.registerTool(
        "bonus_tool",
        { title: "Bonus", description: "Exists only while toggled on.", annotations: { readOnlyHint: true } },
        () => "You found the bonus tool!",
      );
      return { bonusTool: true };
    },
  );

  // ---- resources ----

  server.registerResource(
    Uri.readme,
    {
      name: "readme",
      title: "Read me",
      description: "What this server is (text).",
      mimeType: "text/markdown",
      annotations: { audience: ["user", "assistant"], priority: 0.8 },
    },
    () => README,
  );

  server.registerResource(
    Uri.logo,
    {
      name: "logo",
      title: "Logo",
      description: "A 4x4 PNG generated in code (binary, sent as a base64 blob).",
      mimeType: "image/png",
      size: PNG.length,
      icons: [ICON],
    },
    () => PNG,
  );

  server.registerResource(
    Uri.counter,
    {
      name: "counter",
      title: "Counter",
      description:
        "A number that ticks on a timer and with bump_counter; subscribe to be told when it changes.",
      mimeType: "application/json",
    },
    () => JSON.stringify({ value: counter }),
  );

  const languages = Object.keys(GREETINGS);
  server.registerResourceTemplate(
    Uri.greetingTemplate,
    {
      name: "greeting",
      title: "Greeting in a language",
      description: "Hello in the given language; completions suggest the languages.",
      mimeType: "text/plain",
      complete: { language: (value) => startsWith(languages, value) },
      list: () =>
        languages.map((language) => ({
          uri: `everything://greetings/${language}`,
          name: `greeting-${language}`,
          mimeType: "text/plain",
        })),
    },
    (_uri, { language = "" }) => {
      const word = GREETINGS[language.toLowerCase()];
      // undefined: the server answers "resource not found".
      return word === undefined ? undefined : `${word}! (${language})`;
    },
  );

  // ---- prompts ----

  const names = ["Ada", "Alan", "Barbara", "Grace", "Linus"];
  server.registerPrompt(
    "greeting",
    {
      title: "Greet someone",
      description: "A prompt with a required and an optional argument, both completable.",
      arguments: [
        { name: "name", description: "Who to greet", required: true },
        { name: "style", description: `One of ${STYLES.join(", ")}`, required: false },
      ],
      complete: {
        name: (value) => startsWith(names, value),
        style: (value) => startsWith(STYLES, value),
      },
    },
    ({ name, style = "casual" }) => `Write a ${style} greeting for ${name}.`,
  );

  server.registerPrompt(
    "code_review",
    {
      title: "Review code",
      description: "A prompt whose arguments come from a zod schema.",
      argsSchema: z.object({
        code: z.string().describe("The code to review"),
        language: z.string().optional().describe("Its language"),
      }),
      complete: {
        language: (value) => startsWith(["go", "javascript", "python", "rust", "typescript"], value),
      },
    },
    ({ code, language }) => [
      {
        role: "user",
        content: text(`Please review this${language ? ` ${language}` : ""} code:\n\n${code}`),
      },
    ],
  );

  server.registerPrompt(
    "summarize_readme",
    {
      title: "Summarize the readme",
      description: "A prompt that embeds a resource in its messages.",
    },
    () => ({
      description: "The readme, embedded, and a request to summarize it",
      messages: [
        {
          role: "user",
          content: embeddedResource({ uri: Uri.readme, mimeType: "text/markdown", text: README }),
        },
        { role: "user", content: text("Summarize the document above in one sentence.") },
      ],
    }),
  );

  registerCounterApp(server, { html: options.appHtml, read: () => counter, bump });

  // ---- the timer, and close ----

  const tickMs = options.tickMs ?? 5_000;
  let timer: ReturnType<typeof setInterval> | undefined;
  if (tickMs > 0) {
    timer = setInterval(bump, tickMs);
    // The timer alone must not keep a process alive (Node and Bun have unref; others ignore this).
    (timer as { unref?: () => void }).unref?.();
  }
  const closeServer = server.close.bind(server);
  return Object.defineProperties(server as EverythingServer, {
    counter: { get: () => counter, enumerable: true },
    close: {
      value: async () => {
        if (timer !== undefined) clearInterval(timer);
        timer = undefined;
        await closeServer();
      },
    },
  });
}
