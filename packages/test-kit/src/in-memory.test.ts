import { transportConformance } from "@mcpkit/test-kit";
import { createInMemoryPair } from "@mcpkit/jsonrpc";

transportConformance("in-memory pair", async () => {
  const [client, server] = createInMemoryPair();
  return { client, server };
});

transportConformance(
  "in-memory pair with per-request streams",
  async () => {
    const [client, server] = createInMemoryPair({ perRequestStream: true });
    return { client, server };
  },
);
