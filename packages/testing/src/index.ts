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
  type ConnectableServer,
  connectInProcess,
  type InProcessClient,
  type InProcessOptions,
} from "./in-process.js";
