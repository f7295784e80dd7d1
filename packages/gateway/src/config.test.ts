import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadGatewayConfig, parseGatewayConfig } from "./config.js";

const one = { mcpServers: { fs: { command: "node", args: ["fs.js"] } } };

describe("parseGatewayConfig", () => {
  it("keeps names without a prefix with one upstream, prefixes by name with several", () => {
    expect(parseGatewayConfig(one).settings.upstreams.fs?.prefix).toBeUndefined();
    const two = parseGatewayConfig({
      mcpServers: { fs: { command: "a" }, web: { url: "http://127.0.0.1:1/mcp" } },
    });
    expect(two.settings.upstreams.fs?.prefix).toBe("fs");
    expect(two.upstreams[1]).toMatchObject({ name: "web", kind: "http", url: "http://127.0.0.1:1/mcp" });
  });

  it.each([
    [{ mcpServers: {} }, "gw.json: mcpServers: lists no server"],
    [{ mcpServers: { fs: {} } }, 'gw.json: mcpServers.fs: has neither "command" nor "url"'],
    [
      { ...one, gateway: { upstreams: { fs: { timeoutMs: -1 } } } },
      "gw.json: gateway.upstreams.fs.timeoutMs: must be a positive number",
    ],
    [
      { ...one, gateway: { upstreams: { web: {} } } },
      "gw.json: gateway.upstreams.web: names no server of mcpServers (it has: fs)",
    ],
    [{ ...one, gateway: { limts: {} } }, "gw.json: gateway.limts: is not a known setting"],
    [
      { ...one, gateway: { apiKeys: { alice: { env: "NOPE" } } } },
      "gw.json: gateway.apiKeys.alice.env: names NOPE, which is not set",
    ],
    [
      { ...one, gateway: { anonymousProfile: "x" } },
      "gw.json: gateway.anonymousProfile: names no profile (profiles: none)",
    ],
    [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax
      { mcpServers: { w: { url: "http://h/${TOKEN}" } } },
      "gw.json: mcpServers.w.url: variables are not expanded in a URL",
    ],
  ])("names the file, the key and the problem (%#)", (config, message) => {
    expect(() => parseGatewayConfig(config, { file: "gw.json" })).toThrow(message);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax
  it("expands ${VAR} in env and headers only", () => {
    const config = parseGatewayConfig(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax
      { mcpServers: { w: { url: "http://h/mcp", headers: { authorization: "Bearer ${TOKEN}" } } } },
      { env: { TOKEN: "t0k" } },
    );
    expect(config.upstreams[0]?.headers).toEqual({ authorization: "Bearer t0k" });
  });
});

it("loadGatewayConfig names the file when it is not JSON", async () => {
  const dir = await mkdtemp(join(tmpdir(), "gw-config-"));
  try {
    const file = join(dir, "gateway.json");
    await writeFile(file, "{ nope");
    await expect(loadGatewayConfig(file)).rejects.toThrow(`${file}: is not JSON`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
