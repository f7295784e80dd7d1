// Core pinning: server on core 0, client on core 1, with taskset when it exists and there are two cores.
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

/**
 * Prefixes for the server and client commands, and a note for the report. Without taskset, or with a
 * single core, the programs run unpinned and the note says so.
 */
export function detectPinning() {
  const cores = availableParallelism();
  const probe = spawnSync("taskset", ["-c", "1", "true"], { stdio: "ignore" });
  if (probe.error || probe.status !== 0 || cores < 2) {
    const why = probe.error
      ? "taskset is not installed"
      : cores < 2
        ? "only one core"
        : "taskset -c 1 failed";
    return { server: [], client: [], note: `not pinned (${why}); figures are less stable` };
  }
  return {
    server: ["taskset", "-c", "0"],
    client: ["taskset", "-c", "1"],
    note: `server pinned to core 0, client to core 1 (taskset), ${cores} cores visible`,
  };
}
