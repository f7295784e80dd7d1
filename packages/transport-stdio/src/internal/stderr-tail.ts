import { StringDecoder } from "node:string_decoder";

/** Longest stderr line kept, in characters; the rest of a longer line is cut. */
const MAX_LINE = 2000;

/** Splits a byte stream into lines, keeps the last `limit` of them and hands each to `onLine`. */
export class StderrTail {
  private readonly lines: string[] = [];
  private readonly decoder = new StringDecoder("utf8");
  private partial = "";

  constructor(
    private readonly limit: number,
    private readonly onLine: ((line: string) => void) | undefined,
  ) {}

  push(chunk: Buffer | string): void {
    const text = this.partial + (typeof chunk === "string" ? chunk : this.decoder.write(chunk));
    const parts = text.split("\n");
    this.partial = parts.pop() ?? "";
    // A line that never ends must not grow without bound.
    if (this.partial.length > MAX_LINE) {
      this.line(this.partial);
      this.partial = "";
    }
    for (const part of parts) this.line(part);
  }

  end(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = "";
    if (rest.length > 0) this.line(rest);
  }

  snapshot(): string[] {
    return [...this.lines];
  }

  private line(raw: string): void {
    const line = (raw.endsWith("\r") ? raw.slice(0, -1) : raw).slice(0, MAX_LINE);
    if (this.limit > 0) {
      this.lines.push(line);
      if (this.lines.length > this.limit) this.lines.shift();
    }
    if (this.onLine) {
      try {
        this.onLine(line);
      } catch {
        // A throwing log callback must not take the transport down with it.
      }
    }
  }
}
