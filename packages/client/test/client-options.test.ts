// createClient options that hand the app a seam: its own JSON Schema validator, a close hook; and what
// the client does with a JSON-RPC batch from the server in each revision.
import { createInMemoryPair, type JsonRpcMessage } from "@mcpkit/jsonrpc";
import type { JsonSchemaValidator } from "@mcpkit/protocol";
import { describe, expect, it } from "vitest";
import { createClient, OutputValidationError } from "../src/index.js";
import { fixture } from "./fixture-server.js";
import { legacyHandlers, responder } from "./helpers.js";

async function connected(options: Parameters<typeof createClient>[0]) {
  const server = fixture();
  const [clientEnd, serverEnd] = createInMemoryPair();
  await server.connect(serverEnd);
  const client = createClient(options);
  await client.connect(clientEnd);
  return { client, server };
}

describe("createClient({ validator })", () => {
  it("checks structuredContent with the app's validator, not the default", async () => {
    const compiled: unknown[] = [];
    const validator: JsonSchemaValidator = {
      compile(schema) {
        compiled.push(schema);
        return {
          validate: () => ({
            ok: false,
            errors: [
              { instancePath: "/sum", schemaPath: "", keyword: "custom", params: {}, message: "is vetoed" },
            ],
          }),
        };
      },
    };
    const { client, server } = await connected({ name: "t", version: "1", validator });
    try {
      await client.listTools();
      const error = await client.callTool("add", { a: 1, b: 2 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutputValidationError);
      expect(String((error as Error).message)).toContain("is vetoed");
      expect(compiled).toContainEqual({
        type: "object",
        properties: { sum: { type: "number" } },
        required: ["sum"],
      });
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe("createClient({ onClose })", () => {
  it("runs once, after the session closed, and close() waits for it", async () => {
    const events: string[] = [];
    const { client, server } = await connected({
      name: "t",
      version: "1",
      onClose: async () => {
        events.push(
          `onClose (client reachable: ${await client.ping().then(
            () => "yes",
            () => "no",
          )})`,
        );
      },
    });
    await Promise.all([client.close(), client.close()]);
    events.push("closed");
    await client.close();
    expect(events).toEqual(["onClose (client reachable: no)", "closed"]);
    await server.close();
  });
});

describe("JSON-RPC batches from the server", () => {
  const batch = [
    { jsonrpc: "2.0", id: "s1", method: "ping" },
    { jsonrpc: "2.0", id: "s2", method: "ping" },
  ];

  async function answersTo(protocolVersion: string): Promise<JsonRpcMessage[]> {
    const r = await responder({ ...legacyHandlers(), ping: () => ({}) });
    const client = createClient({ name: "t", version: "1", versionNegotiation: "legacy", protocolVersion });
    await client.connect(r.transport);
    try {
      await r.peer.transport.send(batch as unknown as JsonRpcMessage);
      // The client's ping answers (or its one refusal) come before the answer to a ping sent after them.
      await client.ping();
      await r.waitFor((m) => m.method === "ping" && "id" in m);
      return r.received.filter((m: any) => !("method" in m));
    } finally {
      await client.close();
      await r.close();
    }
  }

  it("are one invalid request (-32600, id null) after 2025-06-18 removed them", async () => {
    expect(await answersTo("2025-11-25")).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining("batch") } },
    ]);
  });

  it("are taken apart where 2025-03-26 was negotiated", async () => {
    const answers = await answersTo("2025-03-26");
    expect(answers.map((m: any) => m.id).sort()).toEqual(["s1", "s2"]);
  });
});
