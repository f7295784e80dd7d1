// What a server spawned by connect() (and by a config file's entry) sees of the parent's environment.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleFixture } from "@mcpkit/test-kit";
import { defaultInheritedEnvNames } from "@mcpkit/transport-stdio";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ConnectTargetOptions, connect, selectServer } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const SECRETS = { AWS_SECRET_ACCESS_KEY: "aws-s3cr3t", GITHUB_TOKEN: "ghp-s3cr3t" };

interface Report {
  names: string[];
  values: Record<string, string | null>;
}

async function report(target: Parameters<typeof connect>[0], options: ConnectTargetOptions = {}) {
  const client = await connect(target, { stderr: "pipe", ...options });
  try {
    const result = await client.callTool("env", {});
    const text = result.content;
    return JSON.parse(typeof text === "string" ? text : JSON.stringify(text)) as Report;
  } finally {
    await client.close();
  }
}

describe("[issue-25.5] the environment of a spawned server", () => {
  beforeEach(() => {
    Object.assign(process.env, SECRETS);
  });
  afterEach(() => {
    for (const name of Object.keys(SECRETS)) delete process.env[name];
  });

  it("[issue-25.5] connect([command]) passes no secret of the parent's, only the minimal set", async () => {
    const entry = await bundleFixture(join(here, "fixtures", "env-server.ts"));
    const seen = await report([process.execPath, entry]);
    expect(seen.values).toEqual({ AWS_SECRET_ACCESS_KEY: null, GITHUB_TOKEN: null, PATH: process.env.PATH });
    expect(seen.names.filter((name) => !defaultInheritedEnvNames().includes(name))).toEqual([]);
  });

  it("[issue-25.5] a config entry's server gets what its env names, and inheritEnv: true gives all", async () => {
    const entry = await bundleFixture(join(here, "fixtures", "env-server.ts"));
    const config = {
      mcpServers: {
        gh: { command: process.execPath, args: [entry], env: { GITHUB_TOKEN: `${"$"}{GITHUB_TOKEN}` } },
      },
    };
    const server = selectServer(config, "gh", process.env);
    if (!("command" in server)) throw new Error("expected a stdio entry");
    const named = await report(server);
    expect(named.values).toMatchObject({ AWS_SECRET_ACCESS_KEY: null, GITHUB_TOKEN: "ghp-s3cr3t" });

    const everything = await report([process.execPath, entry], { inheritEnv: true });
    expect(everything.values).toMatchObject(SECRETS);
  });
});
