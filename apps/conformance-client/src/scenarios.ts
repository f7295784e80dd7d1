// What the conformance client does per scenario: @mcpkit/client over the Streamable HTTP client
// transport, and for each scenario the few calls the suite expects of a client (read from the suite's
// src/scenarios/client). auth/* scenarios belong to apps/conformance-auth-client; the `withCredentials`
// hook below is where credentials would wrap the transport's fetch (as `withAuth` from @mcpkit/auth does).
import { type Client, createClient, createSkillsClient, SkillVerificationError } from "@mcpkit/client";
import { isModernVersion, type JsonSchema, type Tool } from "@mcpkit/protocol";
import { createStreamableHttpClientTransport } from "@mcpkit/transport-http";

interface ToolCall {
  name: string;
  arguments?: Record<string, unknown>;
}

interface Context {
  name?: string;
  toolCalls?: ToolCall[];
  [key: string]: unknown;
}

/** What one scenario does once connected. */
type Scenario = (client: Client, context: Context) => Promise<void>;

/** Example arguments for a tool: a value of the declared type for every required property. */
export function sampleArguments(schema: JsonSchema | undefined): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of schema?.required ?? []) {
    const property = properties[name] ?? {};
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    if (Array.isArray(property.enum) && property.enum.length > 0) args[name] = property.enum[0];
    else if (type === "integer" || type === "number") args[name] = 1;
    else if (type === "boolean") args[name] = true;
    else if (type === "array") args[name] = [];
    else if (type === "object") args[name] = {};
    else args[name] = "test";
  }
  return args;
}

async function callEvery(client: Client, tools: Tool[]): Promise<void> {
  for (const tool of tools) await client.callTool(tool.name, sampleArguments(tool.inputSchema));
}

/** Scenario name → what the client does once connected. */
const listTools: Scenario = async (client) => {
  await client.listTools();
};

const scenarios: Record<string, Scenario> = {
  initialize: listTools,
  "json-schema-ref-no-deref": listTools,
  async tools_call(client) {
    await client.listTools();
    await client.callTool("add_numbers", { a: 5, b: 3 });
  },
  async "request-metadata"(client) {
    await callEvery(client, await client.listTools());
  },
  async "sep-2322-client-request-state"(client) {
    const names = new Set((await client.listTools()).map((t) => t.name));
    for (const name of [
      "test_mrtr_echo_state",
      "test_mrtr_unrelated",
      "test_mrtr_no_state",
      "test_mrtr_no_result_type",
    ]) {
      if (names.has(name)) await client.callTool(name, {});
    }
  },
  async "http-standard-headers"(client) {
    const caps = client.capabilities ?? {};
    await callEvery(client, await client.listTools());
    if (caps.resources) {
      for (const resource of await client.listResources()) await client.readResource(resource.uri);
    }
    if (caps.prompts) {
      for (const prompt of await client.listPrompts()) {
        const args: Record<string, string> = {};
        for (const a of prompt.arguments ?? []) if (a.required) args[a.name] = "test";
        await client.getPrompt(prompt.name, args);
      }
    }
  },
  async "http-custom-headers"(client, context) {
    await client.listTools();
    for (const call of context.toolCalls ?? []) await client.callTool(call.name, call.arguments ?? {});
  },
  async "http-invalid-tool-headers"(client) {
    // The client drops tools whose x-mcp-header annotations are invalid; every tool left is callable.
    await callEvery(client, await client.listTools());
  },
  async "json-schema-2020-12-preservation"(client) {
    const tools = await client.listTools();
    const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
    if (!focal) throw new Error("json_schema_2020_12_tool was not listed");
    await client.callTool("json_schema_echo", { schema: focal.inputSchema });
  },
  async "elicitation-sep1034-client-defaults"(client) {
    await client.listTools();
    await client.callTool("test_client_elicitation_defaults", {});
  },
  async "sse-retry"(client) {
    await client.listTools();
    await client.callTool("test_reconnection", {});
  },
};

/**
 * The Skills extension scenarios: list the skills (reading no file), then load each one through the
 * verification path and read its listed files. A skill whose SKILL.md fails size, digest or frontmatter
 * verification is refused (SkillVerificationError) and nothing more of it is read.
 */
const loadSkills: Scenario = async (client) => {
  const skills = createSkillsClient(client, { onError: (e) => trace(`skills: ${String(e)}`) });
  for (const entry of await skills.list()) {
    try {
      const loaded = await skills.load(entry);
      for (const file of entry.resources === "dynamic" ? [] : entry.resources) {
        if (file.uri !== entry.uri) await loaded.readFile(file.uri);
      }
    } catch (error) {
      if (!(error instanceof SkillVerificationError)) throw error;
      trace(`refused ${error.uri} (${error.reason}): ${error.message}`);
    }
  }
};
scenarios["sep-2640-client-verify-digest"] = loadSkills;
scenarios["sep-2640-client-verify-size"] = loadSkills;
scenarios["sep-2640-client-verify-frontmatter"] = loadSkills;
// Never prefetch: listing reads no skill file.
scenarios["sep-2640-client-no-prefetch"] = async (client) => {
  await createSkillsClient(client).list();
};

/** A scenario this client does not know: list what the server offers and call each tool. */
const fallback: Scenario = async (client) => {
  await callEvery(client, await client.listTools());
};

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Where OAuth would plug in, as a wrapper around the fetch (`withAuth(provider, { fetch })`); auth
 * scenarios are apps/conformance-auth-client's, so here the fetch goes out as it is.
 */
function withCredentials(fetch: FetchLike, _scenario: string, _context: Context): FetchLike {
  return fetch;
}

const started = Date.now();
/** Progress lines on stderr (the suite keeps them in stderr.txt), with milliseconds since start. */
function trace(message: string): void {
  console.error(`[${Date.now() - started} ms] ${message}`);
}

/** Connects to `url` at the revision of `env` and plays the scenario `env` names. */
export async function run(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const scenario = env.MCP_CONFORMANCE_SCENARIO ?? "";
  const revision = env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "2025-11-25";
  const context = JSON.parse(env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Context;
  const modern = isModernVersion(revision);
  const client = createClient({
    name: "mcpkit-conformance-client",
    version: "0.0.0",
    // The suite runs each scenario at one revision's wire: speak exactly that one.
    versionNegotiation: modern ? "modern" : "legacy",
    protocolVersion: revision,
    // The suite kills the client after 30 s and scores the checks, not the exit: never give up first.
    requestTimeout: 60_000,
    connectTimeout: 60_000,
    capabilities: { elicitation: { form: { applyDefaults: true } } },
    handlers: {
      // Accept with nothing filled in: the schema's defaults are applied (applyDefaults above).
      elicitation: () => ({ action: "accept", content: {} }),
      sampling: () => ({
        role: "assistant",
        content: { type: "text", text: "This is a response from the conformance client." },
        model: "mcpkit-conformance",
        stopReason: "endTurn",
      }),
      roots: () => [],
    },
    onError: (error) => console.error(`[client] ${error.message}`),
    onNotification: (n) => trace(`notification ${n.method}`),
  });
  try {
    trace(`${scenario} at ${revision}: connecting to ${url}`);
    const fetchTraced = async (input: string | URL | Request, init?: RequestInit) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      const what = `${init?.method ?? "GET"} ${headers["mcp-method"] ?? ""}`.trim();
      trace(`-> ${what}`);
      const response = await fetch(input, init);
      trace(`<- ${what} ${response.status}`);
      return response;
    };
    const transportFetch = withCredentials(fetchTraced, scenario, context);
    await client.connect(() => createStreamableHttpClientTransport({ url, fetch: transportFetch }));
    trace(`connected: ${client.era} ${client.protocolVersion}`);
    await (scenarios[scenario] ?? fallback)(client, context);
    trace("done");
  } finally {
    await client.close();
  }
}
