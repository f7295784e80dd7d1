// A loopback HTTP server that plays a model in OpenAI's Chat Completions and Anthropic's Messages wire
// formats, so the bridge examples run with the real SDKs and no key or network. Its script: first call
// the first tool offered with `{ city: "Lisbon" }`, then answer "Forecast: <the tool's result>".
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A running scripted provider. */
export interface ScriptedProvider {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Paths of the requests received, in order. */
  readonly paths: string[];
  close(): Promise<void>;
}

const ARGS = { city: "Lisbon" };

function chatCompletions(body: any): unknown {
  const toolMessage = body.messages.find((m: { role: string }) => m.role === "tool");
  const message = toolMessage
    ? { role: "assistant", content: `Forecast: ${toolMessage.content}` }
    : {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: body.tools[0].function.name, arguments: JSON.stringify(ARGS) },
          },
        ],
      };
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 0,
    model: body.model,
    choices: [{ index: 0, message, finish_reason: toolMessage ? "stop" : "tool_calls" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function anthropicMessages(body: any): unknown {
  const results = body.messages
    .flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
    .filter((block: { type: string }) => block.type === "tool_result");
  const result = results[0];
  const resultText = result
    ? typeof result.content === "string"
      ? result.content
      : result.content.map((b: { text?: string }) => b.text ?? "").join("")
    : "";
  return {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: body.model,
    content: result
      ? [{ type: "text", text: `Forecast: ${resultText}` }]
      : [{ type: "tool_use", id: "toolu_1", name: body.tools[0].name, input: ARGS }],
    stop_reason: result ? "end_turn" : "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

/** Starts the provider on 127.0.0.1 and an ephemeral port. */
export async function startScriptedProvider(): Promise<ScriptedProvider> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0] ?? "";
      paths.push(path);
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        const reply =
          path === "/v1/chat/completions"
            ? chatCompletions(body)
            : path === "/v1/messages"
              ? anthropicMessages(body)
              : undefined;
        res.writeHead(reply ? 200 : 404, { "content-type": "application/json" });
        res.end(JSON.stringify(reply ?? { error: { message: `no route ${path}` } }));
      } catch (error) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: String(error) } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
