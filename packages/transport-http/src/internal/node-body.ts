/**
 * A private handshake between `createNodeFetch` and the client transports: a response from that fetch
 * carries this key, a function that hands over its body as the `node:http` stream itself (or undefined
 * when the body is not a stream any more). The transports then read SSE without Web streams; with any
 * other fetch they use the standard `Response` API. A registered symbol, so that two copies of the
 * package still agree.
 */
export const NODE_BODY: unique symbol = Symbol.for("@mcpkit/transport-http.nodeBody") as never;

/** The part of a Node readable stream the transports use (structural: no `node:*` import here). */
export interface NodeChunkStream {
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  off(event: "end" | "close", listener: () => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
  destroy(error?: Error): unknown;
  /** True once destroyed (after its end was read, or when it broke). */
  readonly destroyed: boolean;
}

/** A response that can hand over its body stream (see {@link NODE_BODY}). */
export interface NodeBodyResponse {
  /** Takes the body stream (the response counts as read), or null when there is none to take. */
  [NODE_BODY](): NodeChunkStream | null;
}

/**
 * The node stream behind a response from `createNodeFetch`, taken over (null when it has none to take:
 * a buffered body, or one already read); undefined for any other response.
 */
export function takeNodeBody(response: Response): NodeChunkStream | null | undefined {
  const take = (response as Partial<NodeBodyResponse>)[NODE_BODY];
  return typeof take === "function" ? take.call(response) : undefined;
}
