// The client and the server judge one JSON Schema alike: the server's verdict on a tool's arguments (its
// inputSchema) equals the client's verdict on the same value as structuredContent (an outputSchema), for a
// draft-07 schema, a 2020-12 one and one of the built-in subset. Both go through protocol's default validator.
import { createInMemoryPair, type Transport } from "@mcpkit/jsonrpc";
import { createServer } from "@mcpkit/server";
import { describe, expect, it } from "vitest";
import { OutputValidationError } from "../src/errors.js";
import { createClient } from "../src/index.js";
import { OutputValidators } from "../src/internal/output-validator.js";

const schemas: Record<string, Record<string, unknown>> = {
  "draft-07": {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { t: { items: [{ type: "string" }], additionalItems: false } },
  },
  "2020-12": {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { t: { prefixItems: [{ type: "string" }], items: false } },
  },
  subset: { type: "object", properties: { t: { type: "array", maxItems: 1 } }, required: ["t"] },
};
const values = [{ t: ["x"] }, { t: ["x", 1] }, { t: [1] }, { t: [] }, {}, { t: "x" }];

describe("one JSON Schema, one verdict on both sides", () => {
  it("[schema:client-server-agree] draft-07, 2020-12 and subset schemas", async () => {
    const server = createServer({ name: "s", version: "1" });
    for (const [name, inputSchema] of Object.entries(schemas)) {
      server.registerTool(name, { inputSchema }, () => "ok");
    }
    const [clientEnd, serverEnd] = createInMemoryPair({ perRequestStream: true });
    await server.connect(serverEnd as Transport);
    const client = createClient({ name: "c", version: "1" });
    await client.connect(clientEnd as Transport);
    try {
      for (const [name, outputSchema] of Object.entries(schemas)) {
        const validators = new OutputValidators();
        validators.reset([{ name, outputSchema }]);
        const serverVerdicts: boolean[] = [];
        const clientVerdicts: boolean[] = [];
        for (const value of values) {
          serverVerdicts.push((await client.callTool(name, value)).isError !== true);
          clientVerdicts.push(
            await validators.check(name, value).then(
              () => true,
              (error: unknown) => {
                if (error instanceof OutputValidationError && /does not match/.test(error.message))
                  return false;
                throw error;
              },
            ),
          );
        }
        expect({ name, clientVerdicts }).toEqual({ name, clientVerdicts: serverVerdicts });
        // Each schema accepts some values and refuses others: the comparison can fail.
        expect(serverVerdicts).toContain(true);
        expect(serverVerdicts).toContain(false);
      }
    } finally {
      await client.close();
      await server.close();
    }
  });
});
