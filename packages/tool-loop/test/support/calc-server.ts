import { fileURLToPath } from "node:url";
import { type Client, createClient } from "@mcpkit/client";
import { spawnStdioTransport } from "@mcpkit/transport-stdio";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const fixture = fileURLToPath(new URL("../fixtures/calc-server.ts", import.meta.url));
const liveFixture = fileURLToPath(new URL("../fixtures/live-server.ts", import.meta.url));

/** The lines the fixture writes on stderr, and a way to await one. */
export interface StderrLines {
  readonly lines: string[];
  /** Resolves when a line equal to `line` has been written (bounded by the test timeout). */
  next(line: string): Promise<void>;
}

/** Collects a child's stderr lines. */
export function stderrLines(): StderrLines & { push(line: string): void } {
  const lines: string[] = [];
  const waiters: { line: string; resolve: () => void }[] = [];
  return {
    lines,
    push(line) {
      lines.push(line);
      for (const waiter of waiters.splice(0)) {
        if (waiter.line === line) waiter.resolve();
        else waiters.push(waiter);
      }
    },
    next(line) {
      return new Promise((resolve) => waiters.push({ line, resolve }));
    },
  };
}

/** A real MCP client connected over a real child process to the calc fixture server. */
export async function connectCalcServer(
  options: { onStderr?: (line: string) => void; fixture?: "calc" | "live" } = {},
): Promise<Client> {
  const client = createClient({ name: "tool-loop-e2e", version: "1.0.0" });
  await client.connect(
    spawnStdioTransport({
      command: process.execPath,
      args: [
        "--conditions=@mcpkit/source",
        "--import",
        "tsx",
        options.fixture === "live" ? liveFixture : fixture,
      ],
      cwd: packageDir,
      stderr: options.onStderr ?? "inherit",
    }),
  );
  return client;
}
