import type { Cassette, ReplayServer } from "@mcpkit/testing";
import { listen } from "@mcpkit/transport-http/node";

/**
 * Serves a replay on Streamable HTTP at `http://127.0.0.1:PORT/mcp` until SIGINT or SIGTERM: a modern
 * cassette answers each POST through `handle`, a legacy one replays per session. Resolves with 0.
 */
export async function serveReplayHttp(
  server: ReplayServer,
  cassette: Cassette,
  port: number,
  stderr: { write(text: string): unknown },
): Promise<number> {
  const handle = await listen({ server, port });
  stderr.write(
    `mcpkit: replaying a ${cassette.era} session (${cassette.events.length} events) at ${handle.url}\n`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await handle.close();
  return 0;
}
