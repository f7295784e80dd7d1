import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** The wire formats the fake provider speaks, by the path it was called on. */
export type FakeProviderFormat = "chat-completions" | "responses" | "messages";

/** One request the fake provider answered: its wire format, its path and its JSON body. */
export interface FakeProviderRequest {
  readonly format: FakeProviderFormat;
  readonly path: string;
  readonly body: any;
  /** The names of the tools the request offered, in order. */
  readonly tools: readonly string[];
  /** The text of the last tool result the request carried, if any. */
  readonly lastToolResult: string | undefined;
}

/** One tool call of a turn. */
export interface FakeToolCall {
  /** The tool's name as the request offered it. */
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
  /** The call id (default `call_<turn>_<n>`). */
  readonly id?: string;
}

/**
 * One turn of the script: `{ toolCalls }` asks for tool calls; `{ text }` answers (`{{result}}` in a
 * string is the last tool result's text); a function of the request returns the turn to play.
 */
export type FakeProviderTurn =
  | { readonly toolCalls: readonly FakeToolCall[]; readonly text?: string }
  | { readonly text: string }
  | ((request: FakeProviderRequest) => FakeProviderTurn);

/** A running fake provider. */
export interface FakeProvider {
  /** `http://127.0.0.1:<port>` — give the SDKs `baseURL: origin + "/v1"` (OpenAI) or `origin` (Anthropic). */
  readonly origin: string;
  /** Every request answered, in order. */
  readonly requests: readonly FakeProviderRequest[];
  /** How many turns of the script are left. */
  readonly remaining: number;
  close(): Promise<void>;
}

const ROUTES: Record<string, FakeProviderFormat> = {
  "/v1/chat/completions": "chat-completions",
  "/chat/completions": "chat-completions",
  "/v1/responses": "responses",
  "/responses": "responses",
  "/v1/messages": "messages",
  "/messages": "messages",
};

/**
 * Starts a loopback HTTP server that plays a model, turn by turn, in the wire formats of OpenAI Chat
 * Completions (`/v1/chat/completions`), OpenAI Responses (`/v1/responses`) and Anthropic Messages
 * (`/v1/messages`), so an agent built on the real provider SDKs runs offline, with no key: point the SDK's
 * base URL at {@link FakeProvider.origin}. Each request consumes one turn, whatever its format.
 *
 * It answers in one JSON body: a request with `stream: true` is refused (400) with a message saying so.
 * A request past the end of the script, or on another path, is answered with an error the SDK raises.
 */
export async function startFakeProvider(script: readonly FakeProviderTurn[]): Promise<FakeProvider> {
  const requests: FakeProviderRequest[] = [];
  let turn = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0] ?? "";
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      const format = ROUTES[path];
      if (format === undefined)
        return reply(404, error(`the fake provider has no route ${req.method} ${path}`));
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return reply(400, error("the request body is not JSON"));
      }
      if (body?.stream === true) {
        return reply(400, error("the fake provider answers in one JSON body: call it without stream: true"));
      }
      const request: FakeProviderRequest = {
        format,
        path,
        body,
        tools: toolNames(format, body),
        lastToolResult: lastToolResult(format, body),
      };
      requests.push(request);
      const index = turn++;
      let played = script[index];
      if (played === undefined) {
        return reply(500, error(`the fake provider's script is used up (${script.length} turns)`));
      }
      while (typeof played === "function") played = played(request);
      reply(200, render(format, body, played, index));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    get remaining() {
      return Math.max(0, script.length - turn);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function error(message: string) {
  return { type: "error", error: { type: "invalid_request_error", message } };
}

type Played = Exclude<FakeProviderTurn, (request: FakeProviderRequest) => FakeProviderTurn>;

function render(format: FakeProviderFormat, body: any, played: Played, index: number): unknown {
  const calls =
    "toolCalls" in played
      ? played.toolCalls.map((call, n) => ({
          id: call.id ?? `call_${index + 1}_${n + 1}`,
          name: call.name,
          arguments: call.arguments ?? {},
        }))
      : [];
  const text = played.text === undefined ? undefined : fill(played.text, lastToolResult(format, body));
  const model = typeof body.model === "string" ? body.model : "fake-model";
  switch (format) {
    case "chat-completions":
      return {
        id: `chatcmpl-${index + 1}`,
        object: "chat.completion",
        created: 0,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: text ?? null,
              ...(calls.length > 0
                ? {
                    tool_calls: calls.map((c) => ({
                      id: c.id,
                      type: "function",
                      function: { name: c.name, arguments: JSON.stringify(c.arguments) },
                    })),
                  }
                : {}),
            },
            finish_reason: calls.length > 0 ? "tool_calls" : "stop",
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      };
    case "responses":
      return {
        id: `resp_${index + 1}`,
        object: "response",
        created_at: 0,
        status: "completed",
        model,
        output: [
          ...(text === undefined
            ? []
            : [
                {
                  type: "message",
                  id: `msg_${index + 1}`,
                  role: "assistant",
                  status: "completed",
                  content: [{ type: "output_text", text, annotations: [] }],
                },
              ]),
          ...calls.map((c, n) => ({
            type: "function_call",
            id: `fc_${index + 1}_${n + 1}`,
            call_id: c.id,
            name: c.name,
            arguments: JSON.stringify(c.arguments),
            status: "completed",
          })),
        ],
        parallel_tool_calls: true,
        tool_choice: "auto",
        tools: [],
        usage: {
          input_tokens: 1,
          output_tokens: 1,
          total_tokens: 2,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        },
      };
    case "messages":
      return {
        id: `msg_${index + 1}`,
        type: "message",
        role: "assistant",
        model,
        content: [
          ...(text === undefined ? [] : [{ type: "text", text }]),
          ...calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.arguments })),
        ],
        stop_reason: calls.length > 0 ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      };
  }
}

function fill(text: string, result: string | undefined): string {
  return text.replaceAll("{{result}}", result ?? "");
}

function toolNames(format: FakeProviderFormat, body: any): string[] {
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : [];
  return tools
    .map((tool) => (format === "chat-completions" ? tool?.function?.name : tool?.name))
    .filter((name): name is string => typeof name === "string");
}

/** The text of the last tool result a request carries, in its format. */
function lastToolResult(format: FakeProviderFormat, body: any): string | undefined {
  const textOf = (content: unknown): string =>
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content
            .map((part: { text?: unknown }) => (typeof part?.text === "string" ? part.text : ""))
            .join("")
        : "";
  if (format === "chat-completions") {
    const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
    const last = messages.filter((m) => m?.role === "tool").at(-1);
    return last === undefined ? undefined : textOf(last.content);
  }
  if (format === "responses") {
    const input: any[] = Array.isArray(body?.input) ? body.input : [];
    const last = input.filter((item) => item?.type === "function_call_output").at(-1);
    return last === undefined ? undefined : textOf(last.output);
  }
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const blocks = messages.flatMap((m) => (Array.isArray(m?.content) ? m.content : []));
  const last = blocks.filter((block: { type?: unknown }) => block?.type === "tool_result").at(-1);
  return last === undefined ? undefined : textOf(last.content);
}
