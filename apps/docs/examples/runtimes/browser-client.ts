// An MCP client in a web page: `@mcpkit/client` over the fetch-based Streamable HTTP transport, calling a
// server on another origin. The server must allow the page's origin and turn CORS on
// (`createStreamableHttpHandler({ allowedOrigins: ["https://app.example"], cors: true })`, see tools.ts).
// Bundle it for the browser (esbuild --bundle --format=esm --platform=browser); `pnpm bench` (scenario 9)
// measures what that weighs.
import { createClient } from "@mcpkit/client";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";

/** Connects to `url`, lists the tools and greets `name`; returns the greeting. */
export async function greetFromPage(url: string, name: string): Promise<string> {
  const client = createClient({ name: "my-page", version: "1.0.0" });
  await client.connect(createStreamableHttpClientTransport({ url }));
  try {
    const tools = await client.listTools();
    console.log("tools:", tools.map((t) => t.name).join(", "));
    return (await client.callTool("greet", { name })).content;
  } finally {
    await client.close();
  }
}
