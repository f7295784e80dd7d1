import type { CallToolResult, Tool } from "@mcpkit/protocol";
import type { HandlerContext, Registered, Server } from "@mcpkit/server";
import type { Exposed } from "./catalog.js";

/** The name of the search meta-tool. */
export const SEARCH_TOOLS = "search_tools";
/** The name of the meta-tool that calls a tool found by {@link SEARCH_TOOLS}. */
export const CALL_TOOL = "call_tool";

/**
 * Progressive discovery: registers `search_tools` (words → the best matching tools, with their
 * descriptions and input schemas) and `call_tool` (a found tool by name, with its arguments), so a model
 * starts with two tools instead of the whole catalog. Only the profile's tools are searched or called.
 */
export function registerSearchTools(
  server: Server,
  tools: readonly Exposed<Tool>[],
  call: (tool: Exposed<Tool>, args: Record<string, unknown>, ctx: HandlerContext) => Promise<CallToolResult>,
): Registered[] {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const search = server.registerTool(
    SEARCH_TOOLS,
    {
      description:
        "Finds tools by what they do. Give a few words; returns up to `limit` tools with their input schemas. Call one with call_tool.",
      inputSchema: {
        type: "object",
        properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1, maximum: 50 } },
        required: ["query"],
      },
    },
    (args: { query: string; limit?: number }) => {
      const found = rankTools(tools, args.query).slice(0, args.limit ?? 10);
      return {
        tools: found.map((t) => ({
          name: t.name,
          description: t.item.description ?? "",
          inputSchema: t.item.inputSchema,
        })),
      };
    },
  );
  const callTool = server.registerTool(
    CALL_TOOL,
    {
      description: "Calls a tool found with search_tools, by its name, with its arguments.",
      inputSchema: {
        type: "object",
        properties: { name: { type: "string" }, arguments: { type: "object" } },
        required: ["name"],
      },
    },
    (args: { name: string; arguments?: Record<string, unknown> }, ctx) => {
      const tool = byName.get(args.name);
      if (!tool) {
        return {
          content: [{ type: "text", text: `no tool named "${args.name}": use search_tools to find one` }],
          isError: true,
        };
      }
      return call(tool, args.arguments ?? {}, ctx);
    },
  );
  return [search, callTool];
}

/** Tools ordered by how many of the query's words their name and description hold (those with none left out). */
export function rankTools<T extends Exposed<Tool>>(tools: readonly T[], query: string): T[] {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
  const scored = tools.map((t) => {
    const name = t.name.toLowerCase();
    const text = `${name} ${(t.item.title ?? "").toLowerCase()} ${(t.item.description ?? "").toLowerCase()}`;
    let score = 0;
    for (const w of words) if (text.includes(w)) score += name.includes(w) ? 2 : 1;
    return { t, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .map((s) => s.t);
}
