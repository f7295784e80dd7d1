// Serves the conformance fixtures over stdio (one connection; both eras: `initialize` or modern `_meta`).
import { serveStdio } from "@mcpkit/transport-stdio";
import { buildConformanceServer } from "./fixtures.js";

const server = buildConformanceServer();
await serveStdio(async (transport) => {
  await server.connect(transport);
});
