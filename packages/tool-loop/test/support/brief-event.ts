import type { LoopEvent } from "../../src/index.js";

/**
 * A loop event as one short line, for asserting the order of a stream's events: `text-delta:…`,
 * `input:…`, `call:name:{args}`, `result:…`, `step:n`, `finish:reason`, else the type. With `detailed`,
 * a call line ends in `:<approval>` and an error result reads `result:error:…`.
 */
export function briefEvent(event: LoopEvent, options: { detailed?: boolean } = {}): string {
  switch (event.type) {
    case "text-delta":
    case "reasoning-delta":
      return `${event.type}:${event.text}`;
    case "tool-input-delta":
      return `input:${event.delta}`;
    case "tool-call": {
      const call = `call:${event.call.name}:${JSON.stringify(event.call.arguments)}`;
      return options.detailed ? `${call}:${event.approval}` : call;
    }
    case "tool-result":
      return `result:${options.detailed && event.result.isError ? "error:" : ""}${event.result.content}`;
    case "step-finish":
      return `step:${event.step}`;
    case "finish":
      return `finish:${event.result.finishReason}`;
    default:
      return event.type;
  }
}
