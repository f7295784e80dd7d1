// What each command does once connected: list, call, read, get, and print the answer.
import type { Client } from "@mcpkit/client";
import { TimeoutError } from "@mcpkit/jsonrpc";
import { type CliArgs, coerceArgs, UsageError } from "./args.js";
import { type BinarySaver, binarySaver, renderParts, renderResourceContents } from "./content.js";
import type { CliIo } from "./io.js";
import { parameterList } from "./parameters.js";
import { renderProgress } from "./progress.js";
import { listSkillsCommand, showSkillCommand } from "./skills.js";
import { terminalSafe, terminalSafeJson } from "./terminal-text.js";

/** Writes one result to stdout: JSON as JSON (`--json`), anything else made safe for the terminal. */
function print(io: CliIo, value: string | { json: unknown }): void {
  const text =
    typeof value === "string" ? terminalSafe(value) : terminalSafeJson(JSON.stringify(value.json, null, 2));
  io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** A warning on stderr, one line. */
function warn(io: CliIo, text: string): void {
  io.stderr.write(`mcpkit: warning: ${terminalSafe(text)}\n`);
}

/**
 * Runs `request` (one JSON-RPC method, on `subject` when it names a tool, prompt or resource); a timeout
 * becomes an error that names both: `tools/call "get-sum" timed out after 1000 ms`.
 */
export async function during<T>(
  method: string,
  subject: string | undefined,
  request: Promise<T>,
): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (!(error instanceof TimeoutError)) throw error;
    const what = subject === undefined ? method : `${method} "${subject}"`;
    const how = error.message.includes("total timeout")
      ? `exceeded its total timeout of ${error.timeout} ms (progress kept it alive until then)`
      : `timed out after ${error.timeout} ms`;
    throw new TimeoutError(`${what} ${how}`, error.timeout);
  }
}

function table(rows: Array<[string, string]>): string {
  if (rows.length === 0) return "(none)";
  const width = Math.min(40, Math.max(...rows.map(([a]) => a.length)));
  return rows.map(([a, b]) => (b ? `${a.padEnd(width)}  ${b.split("\n")[0]}` : a)).join("\n");
}

/**
 * The usage error of a command given no name: what it needs (`a tool name`, `a resource URI`), the
 * command line it wants, and what this server has.
 */
function needsName(
  args: CliArgs,
  what: "tool" | "prompt" | "skill" | "uri",
  names: readonly string[],
): UsageError {
  const needed = what === "uri" ? "a resource URI" : `a ${what} name`;
  return new UsageError(
    `${args.command} needs ${needed}: mcpkit ${args.command} <${what}> <target> (this server has: ${names.join(", ") || "none"})`,
  );
}

/** The tool or prompt the line names, out of the server's list; a usage error naming the list otherwise. */
function pickNamed<T extends { name: string }>(
  args: CliArgs,
  what: "tool" | "prompt",
  items: readonly T[],
): T {
  const names = items.map((item) => item.name);
  if (args.name === undefined) throw needsName(args, what, names);
  const found = items.find((item) => item.name === args.name);
  if (found) return found;
  throw new UsageError(`no ${what} "${args.name}" on this server (it has: ${names.join(", ") || "none"})`);
}

/** The argument names the schema does not declare (none when it allows any, or declares nothing). */
function undeclared(keys: readonly string[], schema: unknown): { unknown: string[]; known: string[] } {
  const s = (typeof schema === "object" && schema !== null ? schema : {}) as Record<string, unknown>;
  const properties = s.properties;
  const open =
    s.additionalProperties === true || typeof s.additionalProperties === "object" || s.patternProperties;
  if (typeof properties !== "object" || properties === null || open) return { unknown: [], known: [] };
  const known = Object.keys(properties);
  return { unknown: keys.filter((key) => !known.includes(key)), known };
}

function warnUndeclared(io: CliIo, kind: string, name: string, unknown: string[], known: string[]): void {
  if (unknown.length === 0) return;
  const list = unknown.map((key) => `"${key}"`).join(", ");
  warn(
    io,
    `${kind} "${name}" has no parameter${unknown.length === 1 ? "" : "s"} ${list} (it takes: ${known.join(", ") || "none"}); sent as given`,
  );
}

function saverFor(args: CliArgs, base: string, cwd: string): BinarySaver | undefined {
  if (args.save === undefined) return undefined;
  return binarySaver(args.save, base, cwd);
}

/** Runs the command of `args` on a connected client; resolves with the exit code. */
export async function runCommand(client: Client, args: CliArgs, io: CliIo): Promise<number> {
  const caps = client.capabilities ?? {};
  switch (args.command) {
    case "inspect": {
      const count = async (has: unknown, method: string, list: () => Promise<unknown[]>) =>
        has ? (await during(method, undefined, list())).length : 0;
      const info = {
        server: client.serverInfo,
        era: client.era,
        protocolVersion: client.protocolVersion,
        capabilities: caps,
        instructions: client.instructions,
        counts: {
          tools: await count(caps.tools, "tools/list", () => client.listTools()),
          resources: await count(caps.resources, "resources/list", () => client.listResources()),
          templates: await count(caps.resources, "resources/templates/list", () =>
            client.listResourceTemplates(),
          ),
          prompts: await count(caps.prompts, "prompts/list", () => client.listPrompts()),
        },
      };
      if (args.json) print(io, { json: info });
      else {
        const s = info.server;
        print(
          io,
          [
            `server           ${s?.name ?? "?"} ${s?.version ?? ""}${s?.title ? ` (${s.title})` : ""}`,
            `era              ${info.era}`,
            `protocol         ${info.protocolVersion}`,
            `capabilities     ${Object.keys(caps).join(", ") || "(none)"}`,
            `tools            ${info.counts.tools}`,
            `resources        ${info.counts.resources}`,
            `templates        ${info.counts.templates}`,
            `prompts          ${info.counts.prompts}`,
            ...(info.instructions ? [`instructions     ${info.instructions.split("\n")[0]}`] : []),
          ].join("\n"),
        );
      }
      return 0;
    }
    case "tools": {
      const tools = await during("tools/list", undefined, client.listTools());
      print(
        io,
        args.json
          ? { json: tools }
          : table(
              tools.map((t) => [t.name, `${parameterList(t.inputSchema)} ${t.description ?? ""}`.trim()]),
            ),
      );
      return 0;
    }
    case "resources": {
      const items = await during("resources/list", undefined, client.listResources());
      print(io, args.json ? { json: items } : table(items.map((r) => [r.uri, r.name ?? ""])));
      return 0;
    }
    case "templates": {
      const items = await during("resources/templates/list", undefined, client.listResourceTemplates());
      print(io, args.json ? { json: items } : table(items.map((r) => [r.uriTemplate, r.name ?? ""])));
      return 0;
    }
    case "prompts": {
      const items = await during("prompts/list", undefined, client.listPrompts());
      print(
        io,
        args.json
          ? { json: items }
          : table(
              items.map((p) => {
                const params = (p.arguments ?? [])
                  .map((a) => (a.required ? a.name : `${a.name}?`))
                  .join(", ");
                return [p.name, `${params ? `(${params}) ` : ""}${p.description ?? ""}`];
              }),
            ),
      );
      return 0;
    }
    case "call":
      return callCommand(client, args, io);
    case "read": {
      if (args.name === undefined) {
        const resources = await during("resources/list", undefined, client.listResources());
        throw needsName(
          args,
          "uri",
          resources.map((r) => r.uri),
        );
      }
      const result = await during("resources/read", args.name, client.readResource(args.name));
      const saver = saverFor(args, args.name.replace(/^[a-z][a-z0-9+.-]*:\/*/i, ""), io.cwd);
      const rendered: string[] = [];
      for (const contents of result.contents) rendered.push(await renderResourceContents(contents, saver));
      if (args.json) print(io, { json: result });
      else io.stdout.write(`${rendered.join("\n")}\n`);
      return 0;
    }
    case "prompt": {
      const prompt = pickNamed(args, "prompt", await during("prompts/list", undefined, client.listPrompts()));
      const promptArgs = Object.fromEntries([
        ...args.pairs,
        ...Object.entries(args.jsonArgs ?? {}).map(
          ([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)] as [string, string],
        ),
      ]);
      const known = (prompt.arguments ?? []).map((a) => a.name);
      warnUndeclared(
        io,
        "prompt",
        prompt.name,
        Object.keys(promptArgs).filter((key) => !known.includes(key)),
        known,
      );
      const result = await during("prompts/get", prompt.name, client.getPrompt(prompt.name, promptArgs));
      if (args.json) print(io, { json: result });
      else {
        const lines: string[] = [];
        for (const m of result.messages)
          lines.push(`${m.role}: ${await renderParts([m.content as never], undefined)}`);
        io.stdout.write(`${lines.join("\n")}\n`);
      }
      return 0;
    }
    case "skills":
    case "skill": {
      // Skill text is the server's too: printed through the same terminal-safe writer.
      const out = {
        write: (text: string) => io.stdout.write(args.json ? terminalSafeJson(text) : terminalSafe(text)),
      };
      if (args.command === "skills") return listSkillsCommand(client, args, out);
      if (args.name === undefined) {
        const skills = await client.listSkills();
        throw needsName(
          args,
          "skill",
          skills.map((s) => s.frontmatter.name),
        );
      }
      return showSkillCommand(client, args, out);
    }
    default:
      throw new UsageError(`nothing to do for ${args.command}`);
  }
}

async function callCommand(client: Client, args: CliArgs, io: CliIo): Promise<number> {
  const tool = pickNamed(args, "tool", await during("tools/list", undefined, client.listTools()));
  const callArgs = { ...coerceArgs(args.pairs, tool.inputSchema as never), ...args.jsonArgs };
  const { unknown, known } = undeclared(Object.keys(callArgs), tool.inputSchema);
  warnUndeclared(io, "tool", tool.name, unknown, known);
  const drawing = Boolean(io.stderr.isTTY) && !args.json;
  const result = await during(
    "tools/call",
    tool.name,
    client.callTool(tool.name, callArgs, {
      onProgress: (p) => {
        if (!drawing) return;
        const update = p.message === undefined ? p : { ...p, message: terminalSafe(p.message) };
        io.stderr.write(`\r${renderProgress(update)}\x1b[K`);
      },
    }),
  );
  if (drawing) io.stderr.write("\r\x1b[K");
  const saver = saverFor(args, tool.name, io.cwd);
  const rendered = await renderParts(result.parts, saver);
  if (args.json)
    print(io, {
      json: { content: result.parts, structuredContent: result.structured, isError: result.isError },
    });
  else if (rendered !== "") io.stdout.write(`${rendered}\n`);
  else print(io, result.structured === undefined ? "" : JSON.stringify(result.structured, null, 2));
  return result.isError ? 1 : 0;
}
