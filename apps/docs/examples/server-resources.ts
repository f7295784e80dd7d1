// Resources and resource templates: static resources (text or bytes) by URI, and RFC 6570 templates
// whose handler gets the variables. Returning undefined from a template handler means "not found".
// Run: pnpm --filter @mcpkit/docs example examples/server-resources.ts

import { createClient } from "@mcpkit/client";
import { createInMemoryPair } from "@mcpkit/jsonrpc";
import { McpError } from "@mcpkit/protocol";
import { createServer } from "@mcpkit/server";

const notes: Record<string, string> = { groceries: "eggs, milk", todo: "write docs" };

const server = createServer({ name: "notes", version: "1.0.0" });
server.registerResource(
  "notes://index",
  { name: "index", title: "All notes", mimeType: "application/json" },
  () => JSON.stringify(Object.keys(notes)),
);
// Bytes are sent as a base64 `blob`.
server.registerResource(
  "notes://logo.png",
  { name: "logo", mimeType: "image/png" },
  () => new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
);
server.registerResourceTemplate(
  "notes://note/{name}",
  {
    name: "note",
    mimeType: "text/plain",
    // Optional: concrete resources of this template, shown in resources/list.
    list: () => Object.keys(notes).map((name) => ({ uri: `notes://note/${name}`, name })),
  },
  (_uri, { name }) => (name === undefined ? undefined : notes[name]),
);

const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = createClient({ name: "docs", version: "1.0.0" });
await client.connect(clientSide);
try {
  console.log("resources:", (await client.listResources()).map((r) => r.uri).join(", "));
  console.log("templates:", (await client.listResourceTemplates()).map((t) => t.uriTemplate).join(", "));
  const index = await client.readResource("notes://index");
  const [first] = index.contents;
  console.log("index:", first && "text" in first ? first.text : "?", first?.mimeType);
  const logo = (await client.readResource("notes://logo.png")).contents[0];
  console.log("logo:", logo && "blob" in logo ? `blob ${logo.blob}` : "?");
  const note = (await client.readResource("notes://note/todo")).contents[0];
  console.log("note/todo:", note && "text" in note ? note.text : "?");
  try {
    await client.readResource("notes://note/missing");
  } catch (error) {
    if (error instanceof McpError) console.log("note/missing: McpError", error.code);
  }
} finally {
  await client.close();
  await server.close();
}
