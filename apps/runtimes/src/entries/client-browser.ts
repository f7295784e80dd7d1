// The browser cell: bundled as a classic script into a page served from another origin than the MCP
// server, runs the client checks against `window.MCP_URL` (cross-origin: the server's CORS) and leaves
// the report on `window.MCP_REPORT`.
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";
import { runClientChecks } from "../fixtures/client-checks.js";

declare const window: { MCP_URL: string; MCP_REPORT?: unknown; MCP_ERROR?: string };

runClientChecks((era) => createStreamableHttpClientTransport({ url: window.MCP_URL, era }), "browser").then(
  (reports) => {
    window.MCP_REPORT = reports;
  },
  (error: unknown) => {
    window.MCP_ERROR = String(error);
  },
);
