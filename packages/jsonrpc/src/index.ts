export {
  ConnectionClosedError,
  ErrorCode,
  FramingError,
  JsonRpcError,
  type JsonRpcErrorObject,
  TimeoutError,
  TransportError,
} from "./errors.js";
export { createInMemoryPair, type InMemoryPairOptions } from "./in-memory.js";
export { isObject } from "./is-object.js";
export {
  createLineFramer,
  DEFAULT_MAX_FRAME_BYTES,
  type LineFramer,
  type LineFramerOptions,
  recoverIdFromHead,
} from "./line-framer.js";
export {
  classifyMessage,
  classifyValue,
  errorResponse,
  isNotification,
  isRequest,
  isResponse,
  type JsonRpcErrorResponse,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcMessageKind,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcSuccessResponse,
  type ParsedMessage,
  parseMessages,
  serializeMessage,
} from "./messages.js";
export { DEFAULT_REQUEST_TIMEOUT } from "./outbound-request.js";
export { createPeer } from "./peer.js";
export type { InboundWatch, OutboundWatch, PeerObserver } from "./peer-observer.js";
export type {
  NotificationContext,
  NotificationHandler,
  NotifyOptions,
  Peer,
  PeerOptions,
  ProgressParams,
  RequestContext,
  RequestHandler,
  RequestOptions,
} from "./peer-types.js";
export { randomId } from "./random-id.js";
export { sleep } from "./sleep.js";
export type { MessageInfo, SendOptions, Transport, TransportSink, TransportTraits } from "./transport.js";
// tapTransport and formatWireEvent are the `@mcpkit/jsonrpc/wire-trace` entry (loaded only when tracing).
export type { WireEvent, WireFormatOptions, WireTap } from "./wire-trace.js";
