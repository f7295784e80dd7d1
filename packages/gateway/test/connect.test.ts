// gateway.connect(transport): one connection served as the anonymous profile (what `mcpkit gateway
// --stdio` does for a desktop host), here over the in-memory pair, in both eras.
import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { expect, it } from "vitest";
import { createGateway, parseGatewayConfig } from "../src/index.js";
import { fixtureEntry } from "./support/harness.js";

it("serves one connection of a desktop host", async () => {
  const gateway = createGateway({
    config: parseGatewayConfig({ mcpServers: { fx: fixtureEntry() }, gateway: { audit: { target: "off" } } }),
  });
  await gateway.start();
  try {
    for (const era of ["modern", "legacy"] as const) {
      const client = createClient({ name: "desktop", version: "1.0.0", versionNegotiation: era });
      const [clientEnd, serverEnd] = createInMemoryPair();
      await gateway.connect(serverEnd);
      await client.connect(clientEnd);
      try {
        expect(client.era).toBe(era);
        expect((await client.callTool("greet", { name: era })).content).toBe(`hello ${era}`);
      } finally {
        await client.close();
      }
    }
  } finally {
    await gateway.close();
  }
});
