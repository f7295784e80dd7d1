// The `./node` entry of @mcpkit/transport-http: the node:http adapter and server, the fetch and the body
// reader for Node clients. Explicit named exports only: a test snapshots this list.

export {
  DEFAULT_HEADERS_TIMEOUT,
  DEFAULT_MAX_HEADER_SIZE,
  DEFAULT_REQUEST_TIMEOUT,
  type HttpServerHandle,
  type ListenOptions,
  listen,
} from "./node/listen.js";
export { type NodeListenerOptions, toNodeListener } from "./node/listener.js";
export { nodeBodyReader } from "./node-body-reader.js";
export { createNodeFetch, type FetchLike, type NodeFetch, type NodeFetchOptions } from "./node-fetch.js";
