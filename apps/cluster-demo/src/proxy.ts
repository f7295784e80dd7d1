// `node dist/proxy.js [--port N] [--keep-alive] URL...`: the test-kit's no-stickiness round-robin proxy on
// its own, in front of instances started elsewhere (the bench's multi-instance rows use it). Prints one
// JSON line `{"port":N}` once listening; SIGTERM/SIGINT stop it.
import { startRoundRobinProxy } from "@mcpkit/test-kit";

const upstreams: string[] = [];
let port = 0;
let keepAlive = false;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i]!;
  if (arg === "--port") port = Number(argv[++i]);
  else if (arg === "--keep-alive") keepAlive = true;
  else upstreams.push(new URL(arg).origin);
}
if (upstreams.length === 0 || !Number.isInteger(port)) {
  process.stderr.write("usage: proxy.js [--port N] [--keep-alive] http://127.0.0.1:PORT ...\n");
  process.exit(2);
}
const proxy = await startRoundRobinProxy({ upstreams, port, keepAlive });
process.stdout.write(`${JSON.stringify({ port: Number(new URL(proxy.url).port) })}\n`);
const stop = () => void proxy.close().finally(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
