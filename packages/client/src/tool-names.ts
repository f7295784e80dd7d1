import type { Tool } from "@mcpkit/protocol";
import { toolNameProblem } from "@mcpkit/protocol";
import { InvalidResultError } from "./errors.js";

/**
 * Warns, once per name for the life of the client, about a server tool whose name breaks the spec's tool
 * name rules (SEP-986: 1-128 characters of A-Z a-z 0-9 _ - .). The tool is kept: the rules are a SHOULD,
 * and dropping it would hide a tool the server really serves. The warning goes to `onError` as an
 * `InvalidResultError` naming the tool and the broken rule.
 */
export class ToolNameWarnings {
  readonly #warned = new Set<string>();

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Checks every tool of a `tools/list` result. */
  check(tools: readonly Tool[]): void {
    for (const tool of tools) {
      const name = (tool as { name?: unknown } | null)?.name;
      if (typeof name !== "string" || this.#warned.has(name)) continue;
      const problem = toolNameProblem(name);
      if (problem === undefined) continue;
      this.#warned.add(name);
      this.onError(
        new InvalidResultError(
          "tools/list",
          `The server's tool ${JSON.stringify(name)} breaks the ${problem}`,
        ),
      );
    }
  }
}
