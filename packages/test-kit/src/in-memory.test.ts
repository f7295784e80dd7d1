import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { transportConformance } from "@mcpkit/test-kit";

transportConformance("in-memory pair", async () => {
  const [client, server] = createInMemoryPair();
  return { client, server };
});

transportConformance("in-memory pair with per-request streams", async () => {
  const [client, server] = createInMemoryPair({ perRequestStream: true });
  return { client, server };
});
