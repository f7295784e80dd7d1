// The batteries: one-line connect/serve over the mcpkit packages, and the names most apps need.

export {
  type Client,
  type ClientOptions,
  createClient,
  type ToolResult,
  withRequestConfig,
} from "@mcpkit/client";
export { ConnectionClosedError, TimeoutError } from "@mcpkit/jsonrpc";
export { McpError, McpErrorCode } from "@mcpkit/protocol";
export { createServer, type Server, type ServerOptions } from "@mcpkit/server";
export { McpCrashError } from "@mcpkit/transport-stdio";
export { type ServerConfig, selectServer } from "./config.js";
export {
  type CommandTarget,
  type ConnectTarget,
  type ConnectTargetOptions,
  connect,
  type InProcessServer,
  type ScopedClient,
  withClient,
} from "./connect.js";
export {
  type Connectable,
  type RunningServer,
  type ServeOptions,
  type ServeStore,
  serve,
} from "./serve.js";
