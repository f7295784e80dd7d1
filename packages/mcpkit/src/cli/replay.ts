import { readFile } from "node:fs/promises";
import type { Readable, Writable } from "node:stream";
import { type Cassette, parseCassette, type ReplayMatch, replayServer } from "@mcpkit/testing";
import { createStdioServerTransport } from "@mcpkit/transport-stdio";
import { UsageError } from "./args.js";
import type { CassetteArgs } from "./cassette-args.js";
import { serveReplayHttp } from "./replay-http.js";

/** Reads and checks a cassette file; a bad one is a usage error naming the file and the fault. */
export async function readCassetteFile(file: string, cwd: string): Promise<Cassette> {
  const path = file.startsWith("/") ? file : `${cwd}/${file}`;
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return parseCassette(text);
  } catch (error) {
    throw new UsageError(`${file}: ${(error as Error).message}`);
  }
}

/** The matching rules of the replay flags. */
export function matchOf(args: CassetteArgs): ReplayMatch {
  return args.match === "exact"
    ? "exact"
    : { ignoreIds: true, ignoreMeta: true, ignoreOrder: args.ignoreOrder };
}

/**
 * `mcpkit replay FILE`: serves the cassette on stdio until stdin ends (or, with `--http PORT`, on
 * Streamable HTTP until SIGINT/SIGTERM). Resolves with the exit code.
 */
export async function runReplay(
  args: CassetteArgs,
  io: { stdin: Readable; stdout: Writable; stderr: { write(text: string): unknown }; cwd: string },
): Promise<number> {
  const cassette = await readCassetteFile(args.file!, io.cwd);
  const server = replayServer(cassette, { match: matchOf(args) });
  if (args.httpPort !== undefined) return serveReplayHttp(server, cassette, args.httpPort, io.stderr);
  const closed = new Promise<void>((resolve) => {
    io.stdin.once("end", resolve);
    io.stdin.once("close", resolve);
  });
  const transport = createStdioServerTransport({ stdin: io.stdin, stdout: io.stdout });
  await server.connect(transport);
  await closed;
  await transport.close();
  return 0;
}
