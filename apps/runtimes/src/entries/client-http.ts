// The client cell for Node, Bun and Deno: the client checks over Streamable HTTP against the URL given as
// the first argument; prints the report as one JSON line and exits 1 when an era failed.
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { runClientChecks } from "../fixtures/client-checks.js";

declare const Deno: { args: string[]; exit(code: number): never } | undefined;

const args = typeof Deno !== "undefined" ? Deno.args : process.argv.slice(2);
const url = args[0];
if (!url) throw new Error("usage: client-http <url>");
const reports = await runClientChecks((era) => createStreamableHttpClientTransport({ url, era }), "http");
console.log(JSON.stringify(reports));
const code = reports.every((r) => r.ok) ? 0 : 1;
if (typeof Deno !== "undefined") Deno.exit(code);
else process.exit(code);
