// The public surface of @mcpkit/testing. Explicit named exports only.

export { createInMemoryPair } from "@mcpkit/jsonrpc";
export {
  createScriptedModel,
  type ScriptContext,
  type ScriptedModel,
  type ScriptedToolCall,
  type ScriptTurn,
} from "@mcpkit/tool-loop";
export {
  type FakeProvider,
  type FakeProviderFormat,
  type FakeProviderRequest,
  type FakeProviderTurn,
  type FakeToolCall,
  startFakeProvider,
} from "./fake-provider.js";
export {
  type ConnectableServer,
  connectInProcess,
  type InProcessClient,
  type InProcessOptions,
} from "./in-process.js";
