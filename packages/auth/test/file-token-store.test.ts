import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileTokenStore, defaultTokenStorePath } from "../src/node.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpkit-tokens-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("createFileTokenStore", () => {
  it("keeps credentials per issuer in a 0600 file that a second store reads", async () => {
    const path = join(dir, "nested", "tokens.json");
    const store = createFileTokenStore({ path });
    expect(await store.get("https://as.example")).toBeUndefined();
    await store.set("https://as.example", {
      client: { client_id: "c1" },
      tokens: { "https://api.example/mcp": { access_token: "a", token_type: "Bearer", expires_at: 5 } },
    });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "nested"))).mode & 0o777).toBe(0o700);
    const again = createFileTokenStore({ path });
    expect(await again.get("https://as.example")).toMatchObject({ client: { client_id: "c1" } });
    expect(await again.list()).toEqual([
      { issuer: "https://as.example", resource: "https://api.example/mcp", expiresAt: 5 },
    ]);
    await again.delete("https://as.example");
    expect(await store.get("https://as.example")).toBeUndefined();
  });

  it("forgets one resource or everything; a damaged file reads as empty", async () => {
    const path = join(dir, "tokens.json");
    const store = createFileTokenStore({ path });
    const token = { access_token: "a", token_type: "Bearer" };
    await store.set("https://as1", {
      tokens: { "https://a.example/mcp": token, "https://b.example/mcp": token },
    });
    await store.set("https://as2", { tokens: { "https://a.example/mcp": token } });
    expect(await store.forget("https://A.example/mcp")).toBe(2);
    expect((await store.list()).map((entry) => entry.resource)).toEqual(["https://b.example/mcp"]);
    expect(await store.get("https://as2")).toBeUndefined();
    expect(await store.forget()).toBe(1);
    await expect(stat(path)).rejects.toThrow();

    await writeFile(path, "{not json");
    expect(await store.get("https://as1")).toBeUndefined();
    await store.set("https://as1", {});
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ version: 1, issuers: { "https://as1": {} } });
  });

  it("lives in MCPKIT_CONFIG_DIR, else XDG_CONFIG_HOME/mcpkit, else ~/.config/mcpkit", () => {
    expect(defaultTokenStorePath({ MCPKIT_CONFIG_DIR: "/tmp/x" })).toBe("/tmp/x/tokens.json");
    expect(defaultTokenStorePath({ XDG_CONFIG_HOME: "/xdg" })).toBe("/xdg/mcpkit/tokens.json");
    expect(defaultTokenStorePath({ HOME: "/home/u" })).toBe("/home/u/.config/mcpkit/tokens.json");
  });
});
