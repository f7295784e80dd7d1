// Runs the CLI as a user runs it: its bin entry bundled into one plain-node script (built once per test
// process), started as a child process.
import { execFile } from "node:child_process";
import path from "node:path";
import { bundleFixture } from "@mcpkit/test-kit";

/** How a run of the CLI ended. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Where and how to run it. */
export interface CliRunOptions {
  cwd?: string;
  /** Added to the test's environment; `MCPKIT_DEBUG` is dropped unless given here. */
  env?: Record<string, string>;
}

/** The bundled CLI's path. */
export function bundledCli(): Promise<string> {
  return bundleFixture(path.join(import.meta.dirname, "..", "src", "bin.ts"));
}

/** Runs the bundled CLI; resolves with its exit code and output (never rejects on a non-zero exit). */
export async function runCli(args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  const cli = await bundledCli();
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  if (options.env?.MCPKIT_DEBUG === undefined) delete env.MCPKIT_DEBUG;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { timeout: 30_000, env, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : (error as { code?: unknown }).code;
        if (typeof code !== "number") reject(error);
        else resolve({ code, stdout, stderr });
      },
    );
  });
}
