// The public surface of @mcpkit/testing, runtime-neutral. Explicit named exports only; the loopback
// fake provider (node:http) is in `@mcpkit/testing/node`.

export { createInMemoryPair } from "@mcpkit/jsonrpc";
export {
  createScriptedModel,
  type ScriptContext,
  type ScriptedModel,
  type ScriptedToolCall,
  type ScriptTurn,
} from "@mcpkit/tool-loop";
export {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type Cassette,
  type CassetteEra,
  type CassetteEvent,
  type CassetteSide,
  eraOf,
} from "./cassette/cassette.js";
export { firstDifference, type IgnorePath, type JsonDifference } from "./cassette/json-difference.js";
export { CassetteError, checkCassette, parseCassette, stringifyCassette } from "./cassette/parse-cassette.js";
export {
  type RecordingTransport,
  type RecordTransportOptions,
  recordTransport,
} from "./cassette/record-transport.js";
export { type CassetteRecorder, createCassetteRecorder, type RecordOptions } from "./cassette/recorder.js";
export {
  DEFAULT_SECRET_KEYS,
  findSecrets,
  REDACTED,
  type RedactOptions,
  redactUrl,
  redactValue,
} from "./cassette/redact.js";
export {
  type ReplayMatch,
  type ReplayOptions,
  type ReplayRequestContext,
  type ReplayServer,
  replayServer,
} from "./cassette/replay-server.js";
export { diffSchemas, type SchemaChange } from "./cassette/schema-diff.js";
export { type ServerSurface, type SurfaceItem, surfaceFromCassette } from "./cassette/surface.js";
export {
  diffSurfaces,
  formatSurfaceDiff,
  type SurfaceChange,
  type SurfaceDiff,
  type SurfaceKind,
} from "./cassette/surface-diff.js";
export {
  type Divergence,
  type VerifyOptions,
  type VerifyReport,
  verifyCassette,
} from "./cassette/verify-cassette.js";
export {
  type ConnectableServer,
  connectInProcess,
  type InProcessClient,
  type InProcessOptions,
} from "./in-process.js";
