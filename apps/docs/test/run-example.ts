// Runs an example as a user would: bundled with esbuild (the workspace sources), then `node file.mjs`.
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleFixture } from "@mcpkit/test-kit";

/** apps/docs */
export const docsRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/** What a finished example printed. */
export interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Bundles `examples/<name>` and runs it with node (bounded: killed after 20 s). */
export async function runExampleFile(name: string, env: Record<string, string> = {}): Promise<ExampleRun> {
  const script = await bundleFixture(join(docsRoot, "examples", name));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script],
      { env: { ...process.env, ...env }, timeout: 20_000, cwd: docsRoot },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The lines an example printed; throws with its output when it exited non-zero. */
export async function exampleLines(name: string): Promise<string[]> {
  const run = await runExampleFile(name);
  if (run.code !== 0) throw new Error(`${name} exited ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run.stdout.trimEnd().split("\n");
}
