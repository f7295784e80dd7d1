export { bundleFixture } from "./fixtures.js";
export {
  type TransportConformanceOptions,
  type TransportPair,
  transportConformance,
} from "./transport-conformance.js";
