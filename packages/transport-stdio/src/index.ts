export { McpCrashError, type McpCrashErrorOptions } from "./crash-error.js";
export { defaultInheritedEnvNames } from "./internal/environment.js";
export {
  createStdioServerTransport,
  type ServeStdioOptions,
  type StdioServerTransportOptions,
  serveStdio,
} from "./serve-stdio.js";
export {
  type ChildExit,
  type SpawnStdioTransportOptions,
  type StderrOption,
  type StdioClientTransport,
  spawnStdioTransport,
} from "./spawn-stdio-transport.js";
export {
  createStreamTransport,
  type StreamTransport,
  type StreamTransportOptions,
} from "./stream-transport.js";
