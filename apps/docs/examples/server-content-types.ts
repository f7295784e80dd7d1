// Content types: a tool result is a list of blocks — text, image, audio, a link to a resource, or an
// embedded resource. The builders of @mcpkit/protocol make them; the client's `result.parts` keeps
// them as sent and `result.content` joins the text (other blocks as JSON).
// Run: pnpm --filter @mcpkit/docs example examples/server-content-types.ts

import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { audio, embeddedResource, fromBase64, image, resourceLink, text, toBase64 } from "@mcpkit/protocol";
import { createServer } from "@mcpkit/server";

// The 8-byte PNG signature stands in for an image, a few bytes for a sound.
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const wav = new TextEncoder().encode("RIFF....WAVE");

const server = createServer({ name: "media", version: "1.0.0" });
server.registerTool("all_kinds", { description: "One block of each kind" }, () => [
  text("Here is everything:"),
  image(toBase64(png), "image/png"),
  audio(toBase64(wav), "audio/wav"),
  resourceLink({ uri: "file:///docs/readme.md", name: "readme", mimeType: "text/markdown" }),
  embeddedResource({ uri: "file:///docs/note.txt", mimeType: "text/plain", text: "an embedded note" }),
]);
// Returning a plain string is the short form of one text block.
server.registerTool("just_text", {}, () => "plain text");

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({ name: "docs", version: "1.0.0" });
await client.connect(clientSide);
try {
  const result = await client.callTool("all_kinds");
  for (const part of result.parts) {
    switch (part.type) {
      case "text":
        console.log("text:", part.text);
        break;
      case "image":
        console.log("image:", part.mimeType, fromBase64(part.data).length, "bytes");
        break;
      case "audio":
        console.log("audio:", part.mimeType, fromBase64(part.data).length, "bytes");
        break;
      case "resource_link":
        console.log("resource_link:", part.uri);
        break;
      case "resource":
        console.log("resource:", part.resource.uri, "text" in part.resource ? part.resource.text : "(blob)");
        break;
    }
  }
  console.log("just_text:", (await client.callTool("just_text")).content);
} finally {
  await client.close();
  await server.close();
}
