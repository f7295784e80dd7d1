import type { ToolCallOutcome, ToolDescriptor, ToolProgress, ToolSource } from "../tool-source.js";

/** A handler of the fake: gets the arguments, the call's signal and its progress callback. */
export type FakeHandler = (
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
  onProgress: ((progress: ToolProgress) => void) | undefined,
) => Promise<ToolCallOutcome> | ToolCallOutcome;

/**
 * An in-memory ToolSource for unit tests of the loop logic (the e2e tests use a real MCP server).
 * It records every call by its server-side name.
 */
export function fakeSource(
  tools: Record<string, { descriptor?: Partial<ToolDescriptor>; handler?: FakeHandler }>,
) {
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const source: ToolSource & { calls: typeof calls; toolsStale: boolean; lists: number } = {
    calls,
    // Set by a test to play a server that sent tools/list_changed; cleared by the next listing.
    toolsStale: false,
    lists: 0,
    async listTools() {
      source.toolsStale = false;
      source.lists++;
      return Object.entries(tools).map(([name, tool]) => ({
        name,
        description: `the ${name} tool`,
        inputSchema: { type: "object", properties: {} },
        ...tool.descriptor,
      }));
    },
    async callTool(name, args, options) {
      calls.push({ name, args });
      const tool = tools[name];
      if (!tool) return { content: `no tool ${name}`, isError: true };
      if (!tool.handler) return { content: `${name} ok` };
      return tool.handler(args, options?.signal, options?.onProgress?.bind(options));
    },
  };
  return source;
}
