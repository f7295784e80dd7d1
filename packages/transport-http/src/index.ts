export type { ResponseBodyReader } from "./body-reader.js";
export {
  createStreamableHttpClientTransport,
  type ReconnectOptions,
  type StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from "./client.js";
export { HttpError, ResponseTooLargeError, SessionExpiredError } from "./errors.js";
export {
  createInMemoryEventStore,
  type EventStore,
  type InMemoryEventStoreOptions,
} from "./event-store.js";
export {
  createStreamableHttpHandler,
  DEFAULT_MAX_BODY_BYTES,
  type HttpConnectionInfo,
  type HttpMessageInfo,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from "./handler.js";
export {
  DEFAULT_HANDSHAKE_TIMEOUT,
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  DEFAULT_MAX_CONCURRENT_REQUESTS_PER_SESSION,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_SSE_BUFFER_BYTES,
  type HttpLimitEvent,
  type HttpLimitName,
} from "./limits.js";
export type { ModernRequestContext, ServerLike, SharedSessionState } from "./server-like.js";
export type { SessionRecord, SessionSignal, SessionStore } from "./session-store.js";
export {
  createSseClientTransport,
  type SseClientTransport,
  type SseClientTransportOptions,
} from "./sse-client.js";
export {
  createSseParser,
  formatSseEvent,
  type SseEvent,
  type SseEventInit,
  type SseParser,
  type SseParserOptions,
} from "./sse-parser.js";
