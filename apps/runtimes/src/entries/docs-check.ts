// The docs cell's client: checks a runtime example of apps/docs (examples/runtimes) as a user would after
// starting it — both eras, its tools listed, `greet` (zod) and `pick` (JSON Schema outside the subset)
// called. Prints the report as one JSON line, like the client cell.
import { createClient } from "@mcpkit/client";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import type { EraReport } from "../fixtures/client-checks.js";

const url = process.argv[2];
if (!url) throw new Error("usage: docs-check <url>");
const reports: EraReport[] = [];
for (const era of ["modern", "legacy"] as const) {
  const checks: string[] = [];
  const client = createClient({ name: "docs-check", version: "1.0.0", versionNegotiation: era });
  try {
    await client.connect(createStreamableHttpClientTransport({ url, era }));
    const names = (await client.listTools()).map((t) => t.name).sort();
    if (names.join() !== "greet,pick") throw new Error(`tools: ${names.join()}`);
    checks.push("tools/list");
    const greeting = await client.callTool("greet", { name: "Ada" });
    if (greeting.content !== "Hello, Ada!") throw new Error(`greet → ${greeting.content}`);
    checks.push("greet");
    const picked = await client.callTool("pick", { slug: "x" });
    const refused = await client.callTool("pick", {});
    if (picked.content !== "picked x" || !refused.isError) throw new Error(`pick → ${picked.content}`);
    checks.push("pick");
    reports.push({ era, ok: true, checks });
  } catch (error) {
    reports.push({ era, ok: false, checks, error: String(error) });
  } finally {
    await client.close().catch(() => {});
  }
}
console.log(JSON.stringify(reports));
process.exit(reports.every((r) => r.ok) ? 0 : 1);
