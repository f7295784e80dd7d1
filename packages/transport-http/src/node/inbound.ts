import type { IncomingMessage } from "node:http";
import { type InboundRequest, TOO_LARGE } from "../internal/inbound.js";

/** Why a request's signal aborts, and the error of a body whose client left mid-way. */
export const CLIENT_GONE = "The client closed the connection";

/** The handler's view of a node request: headers read from `rawHeaders`, a `Request` built on demand. */
export class NodeInbound implements InboundRequest {
  identity?: { value: unknown };
  private built: Request | undefined;
  private builtHeaders: Headers | undefined;
  private controller: AbortController | undefined;
  private goneFns: Array<() => void> | undefined;
  private isGone = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly hostHeader: string,
    private readonly body: Buffer | undefined,
    private readonly oversized: boolean,
  ) {}

  get method(): string {
    return this.req.method ?? "GET";
  }

  header(name: string): string | null {
    // A scan of the raw list (a dozen entries) allocates nothing; names arrive lower-case already.
    const raw = this.req.rawHeaders;
    let out: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const key = raw[i]!;
      if (key.length !== name.length || (key !== name && key.toLowerCase() !== name)) continue;
      out = out === null ? raw[i + 1]! : `${out}, ${raw[i + 1]!}`;
    }
    return out;
  }

  host(): string {
    return this.header("host") ?? "localhost";
  }

  readBody(maxBytes: number): string | typeof TOO_LARGE {
    if (this.oversized) return TOO_LARGE;
    const body = this.body;
    if (body === undefined || body.length === 0) return "";
    if (body.length > maxBytes) return TOO_LARGE;
    const text = body.toString("utf8");
    // As Request.text() does: a leading BOM is not part of the text.
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  onGone(fn: () => void): void {
    if (this.isGone) fn();
    else (this.goneFns ??= []).push(fn);
  }

  /** The socket closed before the reply was complete. */
  gone(): void {
    if (this.isGone) return;
    this.isGone = true;
    this.controller?.abort(new Error(CLIENT_GONE));
    const fns = this.goneFns;
    this.goneFns = undefined;
    if (fns) for (const fn of fns) fn();
  }

  get headers(): Headers {
    if (this.builtHeaders === undefined) {
      const headers = new Headers();
      const raw = this.req.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
      // A body cut at the cap no longer matches its declared length.
      if (this.oversized && this.body !== undefined) headers.delete("content-length");
      this.builtHeaders = headers;
    }
    return this.builtHeaders;
  }

  get request(): Request {
    if (this.built === undefined) {
      // The Request's signal is how a Web-standard reader learns that the client left.
      const controller = new AbortController();
      this.controller = controller;
      if (this.isGone) controller.abort(new Error(CLIENT_GONE));
      const url = new URL(this.req.url ?? "/", `http://${this.hostHeader || "localhost"}`).href;
      const init: RequestInit = { method: this.method, headers: this.headers, signal: controller.signal };
      if (this.body !== undefined && this.body.length > 0) init.body = this.body as Uint8Array<ArrayBuffer>;
      this.built = new Request(url, init);
    }
    return this.built;
  }
}

/** The body, read until it ends or passes `max` (then what arrived so far, which is over the cap). */
export function readNodeBody(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = () => {
      req.off("data", onData);
      req.off("end", finish);
      req.off("error", onError);
      req.off("close", onClose);
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      // Enough to be refused with 413; the rest is not read.
      if (total > max) {
        req.pause();
        finish();
      }
    };
    const onError = (error: Error) => {
      req.off("data", onData);
      req.off("end", finish);
      req.off("close", onClose);
      reject(error);
    };
    const onClose = () => {
      if (!req.complete) onError(new Error(CLIENT_GONE));
    };
    req.on("data", onData);
    req.once("end", finish);
    req.once("error", onError);
    req.once("close", onClose);
  });
}
