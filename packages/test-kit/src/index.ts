export { CHROMIUM_PATH, chromiumLaunchOptions } from "./chromium.js";
export {
  type EventStoreBounds,
  type EventStoreLike,
  type EventStoreUnderTest,
  eventStoreConformance,
} from "./event-store-conformance.js";
export { bundleFixture } from "./fixtures.js";
export {
  INSTANCE_HEADER,
  type ProxiedRequest,
  type RoundRobinProxy,
  type RoundRobinProxyOptions,
  startRoundRobinProxy,
} from "./round-robin-proxy.js";
export {
  type TransportConformanceOptions,
  type TransportPair,
  transportConformance,
} from "./transport-conformance.js";
