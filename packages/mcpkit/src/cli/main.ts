import { readFile } from "node:fs/promises";
import { createOAuthProvider } from "@mcpkit/auth";
import { createFileTokenStore, createLoopbackRedirect } from "@mcpkit/auth/node";
import type { Client } from "@mcpkit/client";
import { selectServer } from "../config.js";
import { type ConnectTarget, type ConnectTargetOptions, connect } from "../connect.js";
import { type CliArgs, type Command, coerceArgs, parseArgs, UsageError } from "./args.js";
import { errorText } from "./error-text.js";
import { parameterList } from "./parameters.js";
import { renderProgress } from "./progress.js";
import { listSkillsCommand, showSkillCommand } from "./skills.js";

/** Where the CLI writes; a test passes its own. */
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

const HELP: Record<Command | "main", string> = {
  main: `mcpkit — talk to any MCP server from the shell

Usage: mcpkit <command> [options] <target> [name]

Commands:
  inspect <target>              server info, era, protocol version, capabilities and counts
  tools <target>                list tools          resources <target>   list resources
  templates <target>            list templates      prompts <target>     list prompts
  call <target> <tool>          call a tool (--arg k=v … or --json '{…}')
  read <target> <uri>           read a resource
  prompt <target> <name>        get a prompt (--arg k=v …)
  skills <target>               list skills (name, files, size, SKILL.md digest, description)
  skill <target> <name>         print a skill's verified SKILL.md (--file PATH: another file of it)
  logout [url]                  forget the stored --oauth login for a server (no url: all of them)

Target:
  http(s)://host/mcp            a Streamable HTTP endpoint (falls back to HTTP+SSE)
  -- command args…              a server started as a child process over stdio (put it last)
  --config FILE --server NAME   a server of an mcpServers / servers config file

Options:
  --json                        machine-readable output
  -H, --header "Name: value"    HTTP header (repeatable)      --bearer-token TOKEN
  --oauth [--client-id ID [--client-secret S]]  sign in to a protected server (opens a loopback redirect)
                                --issuer URL: the authorization server the client is registered with
                                (required with --client-id; its id and secret are sent only there)
                                the login is kept in ~/.config/mcpkit/tokens.json (0600; XDG_CONFIG_HOME,
                                MCPKIT_CONFIG_DIR move it) and refreshed; \`mcpkit logout\` forgets it
  --timeout MS                  per-request timeout (and the handshake's, unless --connect-timeout)
  --connect-timeout MS          bound on connecting and the handshake (default 30000)
  -v, --verbose                 error detail and the server's stderr
  --trace                       each JSON-RPC message in and out on stderr (also: MCPKIT_DEBUG=wire)
  -h, --help                    help (also: mcpkit <command> --help)    -V, --version`,
  inspect:
    "mcpkit inspect <target> [--json]\n  Prints the server's name, version, era, protocol version, capabilities, instructions and the number of tools, resources, templates and prompts.",
  tools:
    "mcpkit tools <target> [--json]\n  Lists the server's tools (all pages): name, parameters (name?: type; ? when optional) and description. --json prints the tools as the server sent them.",
  resources: "mcpkit resources <target> [--json]\n  Lists the server's resources (all pages).",
  templates: "mcpkit templates <target> [--json]\n  Lists the server's resource templates (all pages).",
  prompts: "mcpkit prompts <target> [--json]\n  Lists the server's prompts and their arguments.",
  call: "mcpkit call <target> <tool> [--arg key=value]… [--json '{…}'] [--json]\n  Calls a tool. --arg values are converted to the types of the tool's input schema. Progress is drawn on a terminal. Exits 1 when the tool reports an error.",
  read: "mcpkit read <target> <uri> [--json]\n  Reads a resource and prints its text (binary contents are summarised).",
  prompt:
    "mcpkit prompt <target> <name> [--arg key=value]… [--json]\n  Gets a prompt with its arguments and prints its messages.",
  skills:
    "mcpkit skills <target> [--json]\n  Lists the server's skills (Skills extension): name (its path when prefixed), number of files, total size, the short SHA-256 digest of its SKILL.md and its description. Reads no skill file.",
  skill:
    "mcpkit skill <target> <name> [--file PATH] [--json]\n  Prints a skill's SKILL.md (name: as listed, or its skill:// URI), or with --file the file at PATH relative to the skill's root, after checking its size, SHA-256 digest and frontmatter against the skill's entry. Exits 1, printing nothing, when they differ.",
  logout:
    "mcpkit logout [url]\n  Removes the tokens --oauth stored for the server at url (every authorization server), or every stored login without a url.",
};

function out(io: CliIo, text: string): void {
  io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

async function resolveTarget(args: CliArgs, io: CliIo): Promise<[ConnectTarget, ConnectTargetOptions]> {
  // Without -v a server's stderr is not shown, but a callback keeps its last lines: a server that dies
  // at start is reported with them (its "Cannot find module …" is the cause a user needs to see).
  const options: ConnectTargetOptions = { stderr: args.verbose ? "inherit" : () => {} };
  if (Object.keys(args.headers).length > 0) options.headers = args.headers;
  if (args.bearerToken !== undefined) options.bearerToken = args.bearerToken;
  if (args.timeout !== undefined) options.requestTimeout = args.timeout;
  const connectTimeout = args.connectTimeout ?? args.timeout;
  if (connectTimeout !== undefined) options.connectTimeout = connectTimeout;
  // The client's wire trace, on stderr so that stdout stays the command's output (and --json parsable).
  if (args.trace) options.trace = (line) => io.stderr.write(`${line}\n`);
  const target = args.target!;
  if (target.kind === "url") {
    if (args.oauth) options.oauth = await oauthFor(target.url, args, io);
    return [target.url, options];
  }
  if (target.kind === "command") return [{ command: target.command, args: target.args }, options];
  const file = target.file.startsWith("/") ? target.file : `${io.cwd}/${target.file}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new UsageError(`cannot read config ${target.file}: ${(error as Error).message}`);
  }
  if (target.server === undefined) {
    const names = serverNames(parsed);
    throw new UsageError(
      `--config needs --server NAME (${target.file} has: ${names.length > 0 ? names.join(", ") : "no servers"})`,
    );
  }
  let server: ReturnType<typeof selectServer>;
  try {
    server = selectServer(parsed, target.server, io.env);
  } catch (error) {
    // A name that is not in the file is the user's to fix: a usage error, like every other.
    throw new UsageError(`${target.file}: ${(error as Error).message}`);
  }
  if ("url" in server) {
    if (server.headers) options.headers = { ...server.headers, ...options.headers };
    return [server.url, options];
  }
  return [
    {
      command: server.command,
      args: server.args ?? [],
      ...(server.env ? { env: server.env } : {}),
      ...(server.cwd ? { cwd: server.cwd } : {}),
    },
    options,
  ];
}

/** The server names of a parsed `mcpServers` / `servers` config file (none when it has neither). */
function serverNames(config: unknown): string[] {
  const record = (typeof config === "object" && config !== null ? config : {}) as Record<string, unknown>;
  const servers = record.mcpServers ?? record.servers;
  return typeof servers === "object" && servers !== null ? Object.keys(servers) : [];
}

// The loopback listener of the CLI's sign-in, closed when the command ends.
let redirectListener: { close(): Promise<void> } | undefined;

async function oauthFor(url: string, args: CliArgs, io: CliIo) {
  const redirect = await createLoopbackRedirect({
    openUrl: (authorizationUrl) => {
      io.stderr.write(`mcpkit: sign in by opening this URL in a browser:\n  ${authorizationUrl.href}\n`);
    },
  });
  redirectListener = redirect;
  return createOAuthProvider({
    serverUrl: url,
    // Logins persist between runs: a stored token is reused, an expired one refreshed before a new sign-in.
    store: createFileTokenStore({ env: io.env }),
    redirectUri: redirect.redirectUri,
    onRedirect: (authorizationUrl, context) => redirect.onRedirect(authorizationUrl, context),
    clientMetadata: { client_name: "mcpkit CLI", redirect_uris: [redirect.redirectUri] },
    ...(args.clientId && args.issuer
      ? {
          client: {
            // Tied to its authorization server: the id and secret are never sent to another one.
            issuer: args.issuer,
            clientId: args.clientId,
            ...(args.clientSecret ? { clientSecret: args.clientSecret } : {}),
          },
        }
      : {}),
  });
}

function table(rows: Array<[string, string]>): string {
  if (rows.length === 0) return "(none)";
  const width = Math.min(40, Math.max(...rows.map(([a]) => a.length)));
  return rows.map(([a, b]) => (b ? `${a.padEnd(width)}  ${b.split("\n")[0]}` : a)).join("\n");
}

async function run(client: Client, args: CliArgs, io: CliIo): Promise<number> {
  const caps = client.capabilities ?? {};
  switch (args.command) {
    case "inspect": {
      const count = async (has: unknown, list: () => Promise<unknown[]>) => (has ? (await list()).length : 0);
      const info = {
        server: client.serverInfo,
        era: client.era,
        protocolVersion: client.protocolVersion,
        capabilities: caps,
        instructions: client.instructions,
        counts: {
          tools: await count(caps.tools, () => client.listTools()),
          resources: await count(caps.resources, () => client.listResources()),
          templates: await count(caps.resources, () => client.listResourceTemplates()),
          prompts: await count(caps.prompts, () => client.listPrompts()),
        },
      };
      if (args.json) out(io, JSON.stringify(info, null, 2));
      else {
        const s = info.server;
        out(
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
      const tools = await client.listTools();
      out(
        io,
        args.json
          ? JSON.stringify(tools, null, 2)
          : table(
              tools.map((t) => [t.name, `${parameterList(t.inputSchema)} ${t.description ?? ""}`.trim()]),
            ),
      );
      return 0;
    }
    case "resources": {
      const items = await client.listResources();
      out(io, args.json ? JSON.stringify(items, null, 2) : table(items.map((r) => [r.uri, r.name ?? ""])));
      return 0;
    }
    case "templates": {
      const items = await client.listResourceTemplates();
      out(
        io,
        args.json ? JSON.stringify(items, null, 2) : table(items.map((r) => [r.uriTemplate, r.name ?? ""])),
      );
      return 0;
    }
    case "prompts": {
      const items = await client.listPrompts();
      out(
        io,
        args.json
          ? JSON.stringify(items, null, 2)
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
    case "call": {
      const tools = await client.listTools();
      const tool = tools.find((t) => t.name === args.name);
      if (!tool) {
        throw new UsageError(
          `no tool "${args.name}" on this server (it has: ${tools.map((t) => t.name).join(", ") || "none"})`,
        );
      }
      const callArgs = { ...coerceArgs(args.pairs, tool.inputSchema as never), ...args.jsonArgs };
      const drawing = Boolean(io.stderr.isTTY) && !args.json;
      const result = await client.callTool(tool.name, callArgs, {
        onProgress: (p) => {
          if (drawing) io.stderr.write(`\r${renderProgress(p)}\x1b[K`);
        },
      });
      if (drawing) io.stderr.write("\r\x1b[K");
      if (args.json)
        out(
          io,
          JSON.stringify(
            { content: result.parts, structuredContent: result.structured, isError: result.isError },
            null,
            2,
          ),
        );
      else
        out(
          io,
          result.content ||
            (result.structured === undefined ? "" : JSON.stringify(result.structured, null, 2)),
        );
      return result.isError ? 1 : 0;
    }
    case "read": {
      const result = await client.readResource(args.name!);
      if (args.json) out(io, JSON.stringify(result, null, 2));
      else {
        for (const c of result.contents) {
          if ("text" in c && typeof c.text === "string") out(io, c.text);
          else
            out(
              io,
              `[binary ${c.mimeType ?? "application/octet-stream"}, ${"blob" in c ? Math.floor((String(c.blob).length * 3) / 4) : 0} bytes: ${c.uri}]`,
            );
        }
      }
      return 0;
    }
    case "prompt": {
      const prompts = await client.listPrompts();
      const prompt = prompts.find((p) => p.name === args.name);
      const promptArgs = Object.fromEntries([
        ...args.pairs,
        ...Object.entries(args.jsonArgs ?? {}).map(
          ([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)] as [string, string],
        ),
      ]);
      if (!prompt) {
        throw new UsageError(
          `no prompt "${args.name}" on this server (it has: ${prompts.map((p) => p.name).join(", ") || "none"})`,
        );
      }
      const result = await client.getPrompt(prompt.name, promptArgs);
      if (args.json) out(io, JSON.stringify(result, null, 2));
      else {
        for (const m of result.messages) {
          const c = m.content as { type: string; text?: string };
          out(io, `${m.role}: ${c.type === "text" ? c.text : JSON.stringify(c)}`);
        }
      }
      return 0;
    }
    case "skills":
      return listSkillsCommand(client, args, io.stdout);
    case "skill":
      return showSkillCommand(client, args, io.stdout);
    default:
      throw new UsageError(`nothing to do for ${args.command}`);
  }
}

async function logout(args: CliArgs, io: CliIo): Promise<number> {
  try {
    const store = createFileTokenStore({ env: io.env });
    const url = args.target?.kind === "url" ? args.target.url : undefined;
    const removed = await store.forget(url);
    out(
      io,
      `${removed === 0 ? "no stored login" : `removed ${removed} stored login${removed === 1 ? "" : "s"}`}${url ? ` for ${url}` : ""}`,
    );
    return 0;
  } catch (error) {
    io.stderr.write(`mcpkit: ${(error as Error).message}\n`);
    return 1;
  }
}

/**
 * Runs the CLI with the given arguments (without `node` and the script). Resolves with the exit code:
 * 0 success, 1 a failure (including a tool that reported an error), 2 a usage error. Never throws;
 * errors are one readable line on stderr, `--verbose` adds the detail.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    io.stderr.write(`mcpkit: ${(error as Error).message}\n`);
    return 2;
  }
  if (args.command === "version") {
    out(io, "mcpkit 0.1.0");
    return 0;
  }
  if (args.command === "help") {
    out(io, HELP[args.helpFor ?? "main"]);
    return 0;
  }
  if (args.command === "logout") return logout(args, io);
  let client: (Client & AsyncDisposable) | undefined;
  let commandLine: string | undefined;
  try {
    const [target, options] = await resolveTarget(args, io);
    if (typeof target === "object" && "command" in target)
      commandLine = [target.command, ...(target.args ?? [])].join(" ");
    client = await connect(target, options);
    return await run(client, args, io);
  } catch (error) {
    const e = error as Error & { code?: number; cause?: unknown };
    io.stderr.write(`mcpkit: ${errorText(error, commandLine)}\n`);
    if (args.verbose) {
      io.stderr.write(`${e.stack ?? ""}\n`);
      if (e.cause) io.stderr.write(`caused by: ${String((e.cause as Error).stack ?? e.cause)}\n`);
    }
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await client?.close().catch(() => {});
    await redirectListener?.close().catch(() => {});
    redirectListener = undefined;
  }
}
