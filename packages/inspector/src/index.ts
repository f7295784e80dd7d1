// The public surface of @mcpkit/inspector. Explicit named exports only: a test snapshots this list.

export {
  type Assertions,
  type Collection,
  type CollectionRun,
  type CollectionStep,
  parseCollection,
  runCollection,
} from "./collection.js";
export type { ConnectionState, ConnectionSummary } from "./connection.js";
export { type ConnectEvidence, type Diagnosis, diagnose } from "./doctor.js";
export {
  defaultAppDir,
  type InspectorOptions,
  type RunningInspector,
  startInspector,
} from "./inspector-server.js";
export { type HttpMode, type InspectorTarget, parseTarget } from "./target.js";
export type { WireEntry } from "./wire-entry.js";
