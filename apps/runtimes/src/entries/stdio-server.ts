// The stdio cell's server side: the runtime tools (and the conformance fixtures) served over stdin/stdout
// with `serveStdio`, on whichever runtime runs this file.
import { serveStdio } from "@mcpkit/transport-stdio";
import { createRuntimeServer } from "../fixtures/runtime-server.js";

const server = createRuntimeServer();
await serveStdio(async (transport) => {
  await server.connect(transport);
});
