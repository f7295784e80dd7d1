import { describe, expect, it } from "vitest";

describe("the public surface", () => {
  it("exports exactly these names from the root entry", async () => {
    expect(Object.keys(await import("./index.js")).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_HANDSHAKE_TIMEOUT",
        "DEFAULT_MAX_BODY_BYTES",
        "DEFAULT_MAX_CONCURRENT_REQUESTS",
        "DEFAULT_MAX_CONCURRENT_REQUESTS_PER_SESSION",
        "DEFAULT_MAX_RESPONSE_BYTES",
        "DEFAULT_MAX_SSE_BUFFER_BYTES",
        "HttpError",
        "ResponseTooLargeError",
        "SessionExpiredError",
        "createInMemoryEventStore",
        "createSseClientTransport",
        "createSseParser",
        "createStreamableHttpClientTransport",
        "createStreamableHttpHandler",
        "formatSseEvent",
      ]
    `);
  });

  it("exports exactly these names from ./node", async () => {
    expect(Object.keys(await import("./node.js")).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_HEADERS_TIMEOUT",
        "DEFAULT_MAX_HEADER_SIZE",
        "DEFAULT_REQUEST_TIMEOUT",
        "createNodeFetch",
        "listen",
        "nodeBodyReader",
        "toNodeListener",
      ]
    `);
  });

  // node.ts, node-fetch.ts and node-body-reader.ts make up the ./node subpath; everything else is the
  // runtime-neutral root.
  it("the root entry imports no node:* module", async () => {
    const { readFileSync, readdirSync } = await import("node:fs");
    const { join } = await import("node:path");
    const dir = join(import.meta.dirname, ".");
    const files = [
      ...readdirSync(dir).filter(
        (f) =>
          f.endsWith(".ts") &&
          !f.endsWith(".test.ts") &&
          f !== "node.ts" &&
          f !== "node-fetch.ts" &&
          f !== "node-body-reader.ts",
      ),
      ...readdirSync(join(dir, "internal")).map((f) => `internal/${f}`),
    ];
    for (const file of files) expect(readFileSync(join(dir, file), "utf8"), file).not.toMatch(/from "node:/);
  });
});
