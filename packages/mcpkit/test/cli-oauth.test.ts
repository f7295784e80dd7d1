// `mcpkit … --oauth`: the CLI signs in to a protected server through a real (loopback) authorization
// server — discovery from the 401, registration, PKCE, the browser step played by the test, the token.
import { type AuthInfo, createProtectedResource } from "@mcpkit/auth";
import { afterEach, expect, it } from "vitest";
import {
  headlessRedirect,
  type LoopbackAuthServer,
  startLoopbackAuthServer,
} from "../../auth/test/support/loopback-auth-server.js";
import { main } from "../src/cli/main.js";
import { createServer, type RunningServer, serve } from "../src/index.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

it("signs in with --oauth and lists the protected server's tools", async () => {
  const as: LoopbackAuthServer = await startLoopbackAuthServer();
  closers.push(() => as.close());
  const server = createServer({ name: "vault", version: "1.0.0" });
  server.registerTool("secret", { description: "Only for signed-in users" }, () => "42");
  const probe = await serve(createServer({ name: "probe", version: "1" }), {
    transport: "http",
    port: 0,
    block: false,
    onListening() {},
  });
  const port = probe.port;
  await probe.close();
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
    env: {},
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
