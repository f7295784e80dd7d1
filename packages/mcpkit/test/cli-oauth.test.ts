// `mcpkit … --oauth`: the CLI signs in to a protected server through a real (loopback) authorization
// server — discovery from the 401, registration, PKCE, the browser step played by the test, the token.
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AuthInfo, createProtectedResource } from "@mcpkit/auth";
import { afterEach, expect, it } from "vitest";
import {
  headlessRedirect,
  type LoopbackAuthServer,
  startLoopbackAuthServer,
} from "../../auth/test/support/loopback-auth-server.js";
import { main } from "../src/cli/main.js";
import { createServer, type RunningServer, serve } from "../src/index.js";
import { freePort } from "./free-port.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A protected server behind a loopback authorization server; the CLI's config dir is a temp dir. */
async function protectedServer(config: Parameters<typeof startLoopbackAuthServer>[0] = {}) {
  const configDir = await mkdtemp(join(tmpdir(), "mcpkit-cli-"));
  closers.push(() => rm(configDir, { recursive: true, force: true }));
  const as: LoopbackAuthServer = await startLoopbackAuthServer(config);
  closers.push(() => as.close());
  const server = createServer({ name: "vault", version: "1.0.0" });
  server.registerTool("secret", { description: "Only for signed-in users" }, () => "42");
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const protect = createProtectedResource({
    resource,
    authorizationServers: [as.issuer],
    verifier: {
      async verify(token): Promise<AuthInfo> {
        // The authorization server's tokens are opaque; it remembers which it issued.
        if (!as.issued.has(token)) throw new Error("not a token we issued");
        return { subject: "cli-user", scopes: [], audience: [resource], claims: {} };
      },
    },
  });
  const running: RunningServer = await serve(server, {
    transport: "http",
    port,
    block: false,
    protect,
    onListening() {},
  });
  closers.push(() => running.close());
  return { as, running, resource, configDir };
}

/** The CLI's io, with a "browser" that follows the authorization URL it prints. */
function cliIo(configDir: string) {
  const io = {
    stdout: "",
    stderr: "",
    signedIn: undefined as Promise<unknown> | undefined,
    streams: {
      stdout: { write: (t: string) => (io.stdout += t) },
      stderr: {
        write: (t: string) => {
          io.stderr += t;
          const url = /https?:\/\/\S+\/authorize\S*/.exec(t)?.[0];
          if (url) io.signedIn = headlessRedirect(new URL(url)).then((location) => fetch(location));
        },
      },
      env: { MCPKIT_CONFIG_DIR: configDir },
      cwd: process.cwd(),
    },
  };
  return io;
}

it("signs in with --oauth and lists the protected server's tools", async () => {
  const { as, running, resource, configDir } = await protectedServer();
  let stdout = "";
  let stderr = "";
  let signedIn: Promise<unknown> | undefined;
  const io = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: {
      write: (t: string) => {
        stderr += t;
        const url = /https?:\/\/\S+\/authorize\S*/.exec(t)?.[0];
        // The "browser": follow the authorization server's redirect back to the CLI's loopback listener.
        if (url) signedIn = headlessRedirect(new URL(url)).then((location) => fetch(location));
      },
    },
    env: { MCPKIT_CONFIG_DIR: configDir },
    cwd: process.cwd(),
  };
  const code = await main(["tools", running.url, "--oauth"], io);
  expect(stderr).toMatch(/sign in by opening this URL/);
  expect(code).toBe(0);
  expect(stdout).toMatch(/^secret\s+Only for signed-in users/m);
  await signedIn;
  expect(as.paths()).toEqual(expect.arrayContaining(["/register", "/authorize", "/token"]));
  const tokenRequest = as.requests.find((r) => r.path === "/token");
  expect(tokenRequest?.form.get("resource")).toBe(resource);
  expect(tokenRequest?.form.get("code_verifier")).toBeTruthy();
});

it("keeps the login in a 0600 file: a second run reuses the token, an expired one is refreshed, logout forgets it", async () => {
  let issued = 0;
  const { as, running, resource, configDir } = await protectedServer({
    token: () => ({
      body: {
        access_token: `at-${++issued}`,
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: `rt-${issued}`,
      },
    }),
  });
  const first = cliIo(configDir);
  expect(await main(["tools", running.url, "--oauth"], first.streams)).toBe(0);
  await first.signedIn;
  const file = join(configDir, "tokens.json");
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  const stored = JSON.parse(await readFile(file, "utf8"));
  expect(stored.issuers[as.issuer].tokens[resource]).toMatchObject({
    access_token: "at-1",
    refresh_token: "rt-1",
  });

  // Second run: no browser, no token request; the stored token opens the server.
  const before = as.requests.length;
  const second = cliIo(configDir);
  expect(await main(["tools", running.url, "--oauth"], second.streams)).toBe(0);
  expect(second.stdout).toMatch(/^secret/m);
  expect(second.stderr).not.toMatch(/sign in/);
  expect(as.requests.slice(before).filter((r) => r.path === "/token" || r.path === "/authorize")).toEqual([]);

  // Expired: the refresh token gets a new access token, still without a browser.
  stored.issuers[as.issuer].tokens[resource].expires_at = Date.now() - 60_000;
  await writeFile(file, JSON.stringify(stored));
  const third = cliIo(configDir);
  expect(await main(["tools", running.url, "--oauth"], third.streams)).toBe(0);
  expect(third.stderr).not.toMatch(/sign in/);
  const refresh = as.requests.filter((r) => r.path === "/token").at(-1);
  expect(refresh?.form.get("grant_type")).toBe("refresh_token");
  expect(refresh?.form.get("refresh_token")).toBe("rt-1");
  const after = JSON.parse(await readFile(file, "utf8"));
  expect(after.issuers[as.issuer].tokens[resource].access_token).toBe("at-2");

  const logout = cliIo(configDir);
  expect(await main(["logout", running.url], logout.streams)).toBe(0);
  expect(logout.stdout).toBe(`removed 1 stored login for ${running.url}\n`);
  expect(JSON.parse(await readFile(file, "utf8")).issuers).toEqual({});
  const again = cliIo(configDir);
  expect(await main(["logout"], again.streams)).toBe(0);
  expect(again.stdout).toBe("no stored login\n");
});
