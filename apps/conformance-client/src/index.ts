// The client the official conformance suite spawns for its client scenarios:
//   node dist/index.js <server-url>
// with MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION (the revision to speak) and, for some
// scenarios, MCP_CONFORMANCE_CONTEXT (JSON) in the environment. Exit code 0 on success, 1 on any failure.
import { run } from "./scenarios.js";

const url = process.argv[process.argv.length - 1];
if (!url || !/^https?:\/\//.test(url)) {
  console.error("usage: mcpkit-conformance-client <server-url>");
  process.exit(2);
}
run(url, process.env).then(
  () => process.exit(0),
  (error: unknown) => {
    // The whole cause chain: a failed fetch hides the socket error in `cause`.
    for (let e: unknown = error, depth = 0; e !== undefined && depth < 5; depth++) {
      console.error(depth === 0 ? "" : "caused by:", e instanceof Error ? (e.stack ?? e.message) : String(e));
      e = e instanceof Error ? e.cause : undefined;
    }
    process.exit(1);
  },
);
