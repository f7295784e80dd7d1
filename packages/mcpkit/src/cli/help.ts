import type { Command } from "./args.js";

/** The text of `mcpkit --help` (`main`) and of `mcpkit <command> --help`. */
export const HELP: Record<Command | "main", string> = {
  main: `mcpkit — talk to any MCP server from the shell

Usage: mcpkit <command> [name] <target> [options]

Commands:
  inspect <target>              server info, era, protocol version, capabilities and counts
  tools <target>                list tools          resources <target>   list resources
  templates <target>            list templates      prompts <target>     list prompts
  call <tool> <target>          call a tool (--arg k=v … or --args '{…}')
  read <uri> <target>           read a resource
  prompt <name> <target>        get a prompt (--arg k=v … or --args '{…}')
  skills <target>               list skills (name, files, size, SKILL.md digest, description)
  skill <name> <target>         print a skill's verified SKILL.md (--file PATH: another file of it)
  logout [url]                  forget the stored --oauth login for a server (no url: all of them)
  record, replay, verify, diff  cassettes: record a session, serve it, check a server against it,
                                compare two servers (\`mcpkit record --help\`)
  inspector [target]            a web page to browse, call and debug servers (\`mcpkit inspector --help\`)
  test <collection.json> [t]    run a saved collection headless: TAP out, exit 1 on a failed assertion
  gateway --config FILE         many servers behind one endpoint, any era in front of any era
                                (\`mcpkit gateway --help\`)

Target (one of):
  http(s)://host/mcp            a Streamable HTTP endpoint (falls back to HTTP+SSE); before or after the
                                name: \`call URL tool\` = \`call tool URL\`
  -- command args…              a server started as a child process over stdio; always last, everything
                                after -- is its command line: \`call tool -- npx -y server\`
  --config FILE --server NAME   a server of an mcpServers / servers config file
  Options go anywhere before --. Without a name, call/read/prompt/skill list what the server has.

Options:
  -a, --arg key=value           an argument (repeatable; converted to the type the tool's schema gives)
  --args '{…}'                  the arguments as one JSON object (merged over --arg)
  --json                        machine-readable output (JSON on stdout)
  --save DIR                    call, read: write binary contents (images, audio, blobs) into DIR
  -H, --header "Name: value"    HTTP header (repeatable)
  --bearer-token TOKEN          HTTP bearer token; better: the MCPKIT_BEARER_TOKEN environment variable
                                (a flag shows in the process list)
  --oauth [--client-id ID --issuer URL]  sign in to a protected server (loopback redirect; a
                                pre-registered client names its authorization server with --issuer, and
                                is sent only there; its secret: MCPKIT_CLIENT_SECRET, or --client-secret S
                                which shows in the process list; --redirect-port PORT for a client
                                registered with a fixed one). The login is kept in
                                ~/.config/mcpkit/tokens.json (0600; XDG_CONFIG_HOME, MCPKIT_CONFIG_DIR move
                                it) and refreshed; \`mcpkit logout\` forgets it
  --timeout MS                  per-request timeout (and the handshake's, unless --connect-timeout)
  --connect-timeout MS          bound on connecting and the handshake (default 30000)
  -v, --verbose                 error detail and the server's stderr
  --trace                       each JSON-RPC message in and out on stderr, argument values shown as
                                "***" (also: MCPKIT_DEBUG=wire); --trace-arguments shows them
  -h, --help                    help (also: mcpkit <command> --help)    -V, --version

Server text is printed with control characters escaped (\\x1b): no terminal escapes get through.`,
  inspect:
    "mcpkit inspect <target> [--json]\n  Prints the server's name, version, era, protocol version, capabilities, instructions and the number of tools, resources, templates and prompts.",
  tools:
    "mcpkit tools <target> [--json]\n  Lists the server's tools (all pages): name, parameters (name?: type; ? when optional) and description. --json prints the tools as the server sent them.",
  resources: "mcpkit resources <target> [--json]\n  Lists the server's resources (all pages).",
  templates: "mcpkit templates <target> [--json]\n  Lists the server's resource templates (all pages).",
  prompts: "mcpkit prompts <target> [--json]\n  Lists the server's prompts and their arguments.",
  call: "mcpkit call <tool> <target> [--arg key=value]… [--args '{…}'] [--json] [--save DIR]\n  Calls a tool (the target may also come first: call <URL> <tool>). --arg values are converted to the types of the tool's input schema; a name the schema does not have is warned about on stderr and sent. Binary parts print as [image/png, 6.1 KB]; --save DIR writes them. Progress is drawn on a terminal. Exits 1 when the tool reports an error.",
  read: "mcpkit read <uri> <target> [--json] [--save DIR]\n  Reads a resource and prints its text; binary contents are summarised ([mime, size: uri]) and --save DIR writes them.",
  prompt:
    "mcpkit prompt <name> <target> [--arg key=value]… [--args '{…}'] [--json]\n  Gets a prompt with its arguments and prints its messages.",
  skills:
    "mcpkit skills <target> [--json]\n  Lists the server's skills (Skills extension): name (its path when prefixed), number of files, total size, the short SHA-256 digest of its SKILL.md and its description. Reads no skill file.",
  skill:
    "mcpkit skill <name> <target> [--file PATH] [--json]\n  Prints a skill's SKILL.md (name: as listed, or its skill:// URI), or with --file the file at PATH relative to the skill's root, after checking its size, SHA-256 digest and frontmatter against the skill's entry. Exits 1, printing nothing, when they differ.",
  logout:
    "mcpkit logout [url]\n  Removes the tokens --oauth stored for the server at url (every authorization server), or every stored login without a url.",
};
