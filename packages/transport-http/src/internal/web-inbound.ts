import { type InboundRequest, TOO_LARGE } from "./inbound.js";

/** The Web entry point's view of a `Request`. */
export class WebInbound implements InboundRequest {
  identity?: { value: unknown };

  constructor(readonly request: Request) {}

  get method(): string {
    return this.request.method;
  }

  get headers(): Headers {
    return this.request.headers;
  }

  header(name: string): string | null {
    return this.request.headers.get(name);
  }

  host(): string {
    return this.request.headers.get("host") ?? new URL(this.request.url).host;
  }

  async readBody(maxBytes: number): Promise<string | typeof TOO_LARGE> {
    const request = this.request;
    const length = request.headers.get("content-length");
    if (length !== null && Number(length) > maxBytes) return TOO_LARGE;
    if (request.body === null) return "";
    if (length !== null) {
      // A declared length within the cap: the runtime reads it in one go, cheaper than chunk by chunk.
      const text = await request.text();
      // The header could lie about a multi-byte body; count what arrived.
      return text.length > maxBytes || new TextEncoder().encode(text).length > maxBytes ? TOO_LARGE : text;
    }
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        return TOO_LARGE;
      }
      chunks.push(value);
    }
    const decoder = new TextDecoder();
    let text = "";
    for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
    return text + decoder.decode();
  }

  /** The adapter aborts `request.signal` when the client disconnects. */
  onGone(fn: () => void): void {
    const signal = this.request.signal;
    if (signal.aborted) fn();
    else signal.addEventListener("abort", fn, { once: true });
  }
}
