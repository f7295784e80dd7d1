// The stdio cell's client side: spawns the server command given as arguments with `spawnStdioTransport`
// and runs the client checks over it in both eras (one child per era). Prints the report as one JSON line.
import { spawnStdioTransport } from "@mcpkit/transport-stdio";
import { runClientChecks } from "../fixtures/client-checks.js";

const [command, ...args] = process.argv.slice(2);
if (!command) throw new Error("usage: stdio-client <command> [args...]");
const reports = await runClientChecks(
  () => spawnStdioTransport({ command, args, stderr: "inherit" }),
  "stdio",
);
console.log(JSON.stringify(reports));
process.exit(reports.every((r) => r.ok) ? 0 : 1);
