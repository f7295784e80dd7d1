import type { StreamableHttpHandler } from "../handler.js";
import type { HandlerState } from "./handler-state.js";
import { Reply } from "./http-util.js";
import type { InboundRequest } from "./inbound.js";
import { WebInbound } from "./web-inbound.js";

/** The core of a handler made by `createStreamableHttpHandler`: one request in, a reply out. */
export type HandlerCore = (inbound: InboundRequest) => Promise<Reply | Response>;

/**
 * A handler made by `createStreamableHttpHandler`: the public {@link StreamableHttpHandler}, and its
 * {@link core} for the node adapter's fast path (which recognizes it with `instanceof`; a handler written
 * by hand, with only `fetch`, is served through `Request`/`Response`).
 */
export class CoreHandler implements StreamableHttpHandler {
  constructor(
    /** Answers one request as the handler's core reads it (a `Request` is built only when needed). */
    readonly core: HandlerCore,
    private readonly state: HandlerState,
  ) {}

  get maxBodyBytes(): number {
    return this.state.maxBodyBytes;
  }

  get sessionCount(): number {
    return this.state.sessions.size;
  }

  async fetch(request: Request): Promise<Response> {
    const reply = await this.core(new WebInbound(request));
    return reply instanceof Reply ? reply.toResponse() : reply;
  }

  async close(): Promise<void> {
    const state = this.state;
    if (state.closed) return;
    state.closed = true;
    // A shared session lives on in the other instances: only this replica goes.
    for (const session of [...state.sessions.values()]) {
      if (session.shared) session.release();
      else session.terminate();
    }
    for (const exchange of [...state.exchanges]) exchange.close();
  }
}
