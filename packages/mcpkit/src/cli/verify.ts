import type { JsonRpcMessage } from "@mcpkit/jsonrpc";
import { verifyCassette } from "@mcpkit/testing";
import type { CassetteArgs } from "./cassette-args.js";
import { liveTransport, modernSendOptions } from "./live-transport.js";
import { readCassetteFile } from "./replay.js";

/**
 * `mcpkit verify FILE -- <cmd>` / `FILE URL`: plays the recorded client against the live server.
 * Prints `ok: N answers match` (exit 0) or the first divergence (exit 1).
 */
export async function runVerify(
  args: CassetteArgs,
  io: { stdout: { write(text: string): unknown }; cwd: string },
): Promise<number> {
  const cassette = await readCassetteFile(args.file!, io.cwd);
  const transport = liveTransport(args.target!, args.headers);
  const report = await verifyCassette(cassette, transport, {
    ...(args.timeout === undefined ? {} : { timeoutMs: args.timeout }),
    sendOptions: (message: JsonRpcMessage) => modernSendOptions(message),
  });
  if (report.ok) {
    io.stdout.write(`ok: ${report.checked} recorded answers match\n`);
    return 0;
  }
  io.stdout.write(`diverged: ${report.divergence!.message}\n`);
  return 1;
}
