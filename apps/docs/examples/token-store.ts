// Logins that persist: `createFileTokenStore` (from `@mcpkit/auth/node`) keeps an OAuth provider's
// credentials in one JSON file — per authorization server, the client registration and a token per
// resource — with mode 0600, so the next run reuses the token and refreshes it when it expires. The
// `mcpkit` CLI uses it for `--oauth` by default (`~/.config/mcpkit/tokens.json`; `XDG_CONFIG_HOME` or
// `MCPKIT_CONFIG_DIR` move it), and `mcpkit logout [url]` forgets a login.
// Run: pnpm --filter @mcpkit/docs example examples/token-store.ts
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileTokenStore } from "@mcpkit/auth/node";

const dir = await mkdtemp(join(tmpdir(), "mcpkit-docs-"));
try {
  const store = createFileTokenStore({ path: join(dir, "tokens.json") });
  // What createOAuthProvider({ serverUrl, store, ... }) writes after a sign-in:
  await store.set("https://auth.example.com", {
    client: { client_id: "mcpkit-cli" },
    tokens: {
      "https://mcp.example.com/mcp": {
        access_token: "at-1",
        token_type: "Bearer",
        refresh_token: "rt-1",
        expires_at: Date.UTC(2030, 0, 1),
      },
    },
  });
  console.log("mode:", ((await stat(store.path)).mode & 0o777).toString(8));
  // A second process (the next CLI run) reads the same file.
  const next = createFileTokenStore({ path: store.path });
  for (const entry of await next.list())
    console.log(
      `login: ${entry.resource} at ${entry.issuer}, expires ${new Date(entry.expiresAt!).toISOString()}`,
    );
  console.log("forgotten:", await next.forget("https://mcp.example.com/mcp"));
  console.log("left:", (await next.list()).length);
} finally {
  await rm(dir, { recursive: true, force: true });
}
