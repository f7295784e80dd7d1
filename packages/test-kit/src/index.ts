export {
  type TransportConformanceOptions,
  type TransportPair,
  transportConformance,
} from "./transport-conformance.js";
