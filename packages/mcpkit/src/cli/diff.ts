import { existsSync } from "node:fs";
import {
  type Cassette,
  diffSurfaces,
  formatSurfaceDiff,
  recordTransport,
  surfaceFromCassette,
} from "@mcpkit/testing";
import { connect } from "../connect.js";
import type { CassetteArgs, LiveTarget } from "./cassette-args.js";
import { liveTransport } from "./live-transport.js";
import { readCassetteFile } from "./replay.js";

/** Records a discovery session of a live server: the handshake and every list it has. */
async function discover(target: LiveTarget, headers: Record<string, string>): Promise<Cassette> {
  const recording = recordTransport(liveTransport(target, headers));
  const client = await connect(recording.transport);
  try {
    const caps = client.capabilities ?? {};
    if (caps.tools) await client.listTools();
    if (caps.prompts) await client.listPrompts();
    if (caps.resources) {
      await client.listResources();
      await client.listResourceTemplates();
    }
  } finally {
    await client.close();
  }
  return recording.cassette();
}

async function load(operand: string | LiveTarget, args: CassetteArgs, cwd: string): Promise<Cassette> {
  if (typeof operand !== "string") return discover(operand, args.headers);
  if (/^https?:\/\//i.test(operand) && !existsSync(operand))
    return discover({ kind: "url", url: operand }, args.headers);
  return readCassetteFile(operand, cwd);
}

/**
 * `mcpkit diff A B [--json]`: the surface change from A to B, as text (or JSON); exit 1 when a change is
 * breaking, else 0.
 */
export async function runDiff(
  args: CassetteArgs,
  io: { stdout: { write(text: string): unknown }; cwd: string },
): Promise<number> {
  const operands: Array<string | LiveTarget> = [...args.operands];
  if (args.target) operands.push(args.target);
  const [a, b] = await Promise.all(operands.map((o) => load(o, args, io.cwd)));
  const diff = diffSurfaces(surfaceFromCassette(a!), surfaceFromCassette(b!));
  io.stdout.write(args.json ? `${JSON.stringify(diff, null, 2)}\n` : formatSurfaceDiff(diff));
  return diff.breaking ? 1 : 0;
}
