import { createServer, serve } from "../src/index.js";

/**
 * A loopback port that was free a moment ago: a throwaway server is served on port 0 and closed. For a
 * protected server whose resource URL (and so its port) must be known before it is served.
 */
export async function freePort(): Promise<number> {
  const probe = await serve(createServer({ name: "probe", version: "1" }), {
    transport: "http",
    port: 0,
    block: false,
    onListening() {},
  });
  const port = probe.port;
  await probe.close();
  return port;
}
