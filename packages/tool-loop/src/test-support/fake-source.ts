import type { ToolCallOutcome, ToolDescriptor, ToolSource } from "../tool-source.js";

/** A handler of the fake: gets the arguments and the call's signal. */
export type FakeHandler = (
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
) => Promise<ToolCallOutcome> | ToolCallOutcome;

/**
 * An in-memory ToolSource for unit tests of the loop logic (the e2e tests use a real MCP server).
 * It records every call by its server-side name.
 */
export function fakeSource(
  tools: Record<string, { descriptor?: Partial<ToolDescriptor>; handler?: FakeHandler }>,
) {
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const source: ToolSource & { calls: typeof calls } = {
    calls,
    async listTools() {
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
      return tool.handler(args, options?.signal);
    },
  };
  return source;
}
