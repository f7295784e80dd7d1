import type {
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ToolCall,
  ToolResultMessage,
} from "./model.js";

/** What a scripted turn's text function learns: the request and the tool results the model was sent. */
export interface ScriptContext {
  /** The request this turn answers. */
  readonly request: ModelRequest;
  /** The tool results since the model's previous turn, in call order. */
  readonly results: readonly ToolResultMessage[];
}

/** One tool call of a scripted turn. */
export interface ScriptedToolCall {
  /** The tool's local name, as the model sees it. */
  readonly name: string;
  /** Its arguments (default `{}`); anything that is not an object exercises the loop's error path. */
  readonly arguments?: unknown;
  /** The call id (default `call_<turn>_<n>`). */
  readonly id?: string | undefined;
}

/**
 * One turn of a script:
 * - `{ toolCalls, text? }` asks for those tool calls;
 * - `{ text }` answers. A string may use `{{result}}` (the last tool result's text), `{{results}}` (all
 *   of the previous turn's results, one per line) and `{{result:<tool name>}}` (the latest result of that
 *   tool anywhere in the transcript); a function gets the {@link ScriptContext};
 * - a function of the request returns the whole response.
 *
 * `reasoning` adds a reasoning block (provider `"scripted"`) to the turn, carried like a real one.
 */
export type ScriptTurn =
  | {
      readonly toolCalls: readonly ScriptedToolCall[];
      readonly text?: string | undefined;
      readonly reasoning?: string | undefined;
    }
  | { readonly text: string | ((context: ScriptContext) => string); readonly reasoning?: string | undefined }
  | ((request: ModelRequest) => ModelResponse | Promise<ModelResponse>);

/** A deterministic {@link Model} that plays a script, and records what it was sent. */
export interface ScriptedModel extends Model {
  /** Every request received, in order (the transcript as the model saw it). */
  readonly requests: readonly ModelRequest[];
  /** How many turns of the script are left. */
  readonly remaining: number;
}

/**
 * Creates a model that plays `script` turn by turn: no keys, no network, the same answers every run.
 *
 * Made for tests and demos: a first turn calls tools, a second answers with text built from their
 * results. Each `generate` consumes one turn; `requests` records what the model was sent. `stream`
 * plays the same turn as a provider would stream it: reasoning, then the text word by word, then each
 * call's arguments in two pieces, then the response.
 * @throws (from `generate`) an `Error` once the script is used up, and `signal.reason` when aborted.
 */
export function createScriptedModel(script: readonly ScriptTurn[]): ScriptedModel {
  const requests: ModelRequest[] = [];
  let next = 0;
  const model: ScriptedModel = {
    get requests() {
      return requests;
    },
    get remaining() {
      return script.length - next;
    },
    async generate(request) {
      request.signal?.throwIfAborted();
      requests.push(request);
      const turnIndex = next;
      const turn = script[turnIndex];
      if (turn === undefined) {
        throw new Error(
          `Scripted model: the script has ${script.length} turns, turn ${turnIndex + 1} was asked for`,
        );
      }
      next++;
      if (typeof turn === "function") return turn(request);
      if ("toolCalls" in turn) {
        const toolCalls: ToolCall[] = turn.toolCalls.map((call, n) => ({
          id: call.id ?? `call_${turnIndex}_${n}`,
          name: call.name,
          arguments: call.arguments === undefined ? {} : call.arguments,
        }));
        return withReasoning({ text: turn.text ?? "", toolCalls }, turn.reasoning);
      }
      const context: ScriptContext = { request, results: latestResults(request) };
      const text = typeof turn.text === "function" ? turn.text(context) : fillTemplate(turn.text, context);
      return withReasoning({ text, toolCalls: [] }, turn.reasoning);
    },
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      const response = await model.generate(request);
      for (const part of response.reasoning ?? []) yield { type: "reasoning-delta", text: part.text };
      for (const piece of response.text.match(/\S+\s*|\s+/g) ?? []) {
        request.signal?.throwIfAborted();
        yield { type: "text-delta", text: piece };
      }
      for (const call of response.toolCalls) {
        const json = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
        const half = Math.ceil(json.length / 2);
        for (const delta of [json.slice(0, half), json.slice(half)]) {
          if (delta !== "") yield { type: "tool-input-delta", id: call.id, name: call.name, delta };
        }
      }
      yield { type: "response", response };
    },
  };
  return model;
}

function withReasoning(response: ModelResponse, reasoning: string | undefined): ModelResponse {
  return reasoning === undefined
    ? response
    : { ...response, reasoning: [{ provider: "scripted", text: reasoning }] };
}

function latestResults(request: ModelRequest): ToolResultMessage[] {
  const results: ToolResultMessage[] = [];
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!;
    if (message.role !== "tool") break;
    results.unshift(message);
  }
  return results;
}

function fillTemplate(text: string, context: ScriptContext): string {
  return text.replace(
    /\{\{(results?)(?::([^}]+))?\}\}/g,
    (_match, kind: string, toolName: string | undefined) => {
      if (kind === "results") return context.results.map((result) => result.content).join("\n");
      if (toolName !== undefined) {
        const all = context.request.messages.filter(
          (message): message is ToolResultMessage => message.role === "tool" && message.name === toolName,
        );
        return all.at(-1)?.content ?? "";
      }
      return context.results.at(-1)?.content ?? "";
    },
  );
}
