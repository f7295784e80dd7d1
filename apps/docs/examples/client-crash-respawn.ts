// Crashes and autoRespawn: when a stdio server dies, every pending call rejects with `McpCrashError`
// (exit code or signal, the tail of its stderr). The next call fails with a ConnectionClosedError
// naming `autoRespawn` — or, with `autoRespawn: true` and a command (a transport factory), restarts the
// server with a fresh handshake and runs. Calls that were in flight are never replayed.
//
// This file is both sides: started with `--serve` it is the server.
// Run: pnpm --filter @mcpkit/docs example examples/client-crash-respawn.ts
import { ConnectionClosedError, connect, createServer, McpCrashError, serve } from "mcpkit";

if (process.argv.includes("--serve")) {
  const server = createServer({ name: "fragile", version: "1.0.0" });
  server.registerTool("pid", {}, () => String(process.pid));
  server.registerTool("crash", {}, () => {
    console.error("fatal: out of cheese");
    process.exit(3);
  });
  await serve(server);
} else {
  const command = [process.execPath, ...process.execArgv, process.argv[1]!, "--serve"];

  for (const autoRespawn of [false, true]) {
    await using client = await connect(command, { autoRespawn, stderr: "pipe" });
    const firstPid = (await client.callTool("pid")).content;
    try {
      await client.callTool("crash");
    } catch (error) {
      if (error instanceof McpCrashError) {
        console.log(
          `[autoRespawn ${autoRespawn}] crash: exit code ${error.exitCode}, stderr: ${error.stderrTail.at(-1)}`,
        );
      }
    }
    try {
      const secondPid = (await client.callTool("pid")).content;
      console.log(`[autoRespawn ${autoRespawn}] next call ran in a new process:`, secondPid !== firstPid);
    } catch (error) {
      console.log(
        `[autoRespawn ${autoRespawn}] next call:`,
        (error as Error).name,
        error instanceof ConnectionClosedError,
      );
    }
  }
}
