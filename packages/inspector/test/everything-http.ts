// Our apps/everything-server over Streamable HTTP in a child process (its main.ts bundled once), on a free
// loopback port; resolves with its URL once it says it listens.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { bundleFixture } from "@mcpkit/test-kit";

const MAIN = fileURLToPath(new URL("../../../apps/everything-server/src/main.ts", import.meta.url));

/** A running everything-server. */
export interface EverythingHttp {
  url: string;
  close(): Promise<void>;
}

/** Starts it; rejects (within 20 s) with its stderr when it does not come up. */
export async function startEverythingHttp(): Promise<EverythingHttp> {
  const entry = await bundleFixture(MAIN);
  const child: ChildProcess = spawn(process.execPath, [entry, "http", "--port", "0", "--tick-ms", "0"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`everything-server did not start in 20 s: ${stderr}`)),
      20_000,
    );
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /serving MCP on (\S+)/.exec(stderr);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`everything-server exited with ${code}: ${stderr}`));
    });
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}
