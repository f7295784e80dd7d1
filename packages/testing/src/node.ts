// The Node-only part of @mcpkit/testing: a loopback HTTP endpoint the real provider SDKs can be pointed at.
export {
  type FakeProvider,
  type FakeProviderFormat,
  type FakeProviderRequest,
  type FakeProviderTurn,
  type FakeToolCall,
  startFakeProvider,
} from "./fake-provider.js";
