// Issue 25, "also weak": each test performs the attack against the real thing (a loopback HTTP resource
// server, the loopback redirect listener, the file token store on disk).

import { lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createJwtVerifier, createProtectedResource } from "../src/index.js";
import { base64UrlEncode } from "../src/internal/encoding.js";
import { createFileTokenStore, createLoopbackRedirect } from "../src/node.js";

const RESOURCE = "https://mcp.example.com/mcp";
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** Serves a Web-standard handler on 127.0.0.1 (a thrown handler becomes a 500, as a host's adapter does). */
async function serve(handler: (request: Request) => Promise<Response>): Promise<string> {
  const server = createServer(async (req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
    }
    let response: Response;
    try {
      response = await handler(
        new Request(`http://127.0.0.1${req.url}`, { method: req.method ?? "GET", headers }),
      );
    } catch {
      response = new Response("handler threw", { status: 500 });
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(await response.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An unsigned JWT whose header is `header`: the verifier reads `alg` before any signature check. */
function forgedJwt(header: Record<string, unknown>): string {
  return `${base64UrlEncode(JSON.stringify(header))}.${base64UrlEncode(JSON.stringify({ sub: "x" }))}.c2ln`;
}

describe("hardening", () => {
  it("[issue-25.weak] a token whose unverified alg carries CR/LF or non-Latin-1 text gets a 401 with a safe challenge", async () => {
    const protectedResource = createProtectedResource({
      resource: RESOURCE,
      authorizationServers: ["https://as.example.com"],
      verifier: createJwtVerifier({ issuer: "https://as.example.com", jwks: { keys: [] } }),
    });
    const base = await serve(protectedResource.wrap(async () => new Response("ok")));
    for (const alg of ["RS256\r\nSet-Cookie: session=attacker", "RS256\u20ac\u2028"]) {
      const response = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${forgedJwt({ alg, typ: "JWT" })}` },
      });
      await response.text();
      expect(response.status).toBe(401);
      expect(response.headers.get("set-cookie")).toBeNull();
      const challenge = response.headers.get("www-authenticate") ?? "";
      expect(challenge).toMatch(/^Bearer error="invalid_token"/);
      expect(challenge).toMatch(/^[\x20-\x7e]*$/);
      expect(challenge).toContain(
        'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
      );
    }
  });

  it("[issue-25.weak] a forged callback to the loopback redirect is refused and the real login still completes", async () => {
    const answers: number[] = [];
    const loopback = await createLoopbackRedirect({
      timeoutMs: 10_000,
      openUrl: async (url) => {
        // Someone else on the machine calls the port first, with their own code and a guessed state.
        const forged = new URL(loopback.redirectUri);
        forged.searchParams.set("code", "attacker-code");
        forged.searchParams.set("state", "guessed");
        const first = await fetch(forged);
        answers.push(first.status);
        await first.text();
        const stateless = new URL(loopback.redirectUri);
        stateless.searchParams.set("code", "attacker-code");
        const second = await fetch(stateless);
        answers.push(second.status);
        await second.text();
        // Then the browser comes back from the real authorization server.
        const real = new URL(loopback.redirectUri);
        real.searchParams.set("code", "real-code");
        real.searchParams.set("state", url.searchParams.get("state") ?? "");
        const third = await fetch(real);
        answers.push(third.status);
        await third.text();
      },
    });
    closers.push(() => loopback.close());
    const result = await loopback.onRedirect(new URL("https://as.example/authorize?state=real-state"));
    expect(answers).toEqual([400, 400, 200]);
    expect(result.searchParams.get("code")).toBe("real-code");
    expect(result.searchParams.get("state")).toBe("real-state");
  });

  it("[issue-25.weak] the token store does not write through a symlink planted at a predictable temporary name", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcpkit-tokens-"));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, "tokens.json");
    const victim = join(dir, "victim.txt");
    await writeFile(victim, "victim\n");
    // The temporary names the old store used: `${path}.${pid}.tmp`.
    const planted = `${path}.${process.pid}.tmp`;
    await symlink(victim, planted);
    const store = createFileTokenStore({ path });
    await store.set("https://as.example", {
      tokens: { [RESOURCE]: { access_token: "secret-token", token_type: "Bearer" } },
    });
    expect(await readFile(victim, "utf8")).toBe("victim\n");
    expect((await lstat(path)).isSymbolicLink()).toBe(false);
    expect((await lstat(path)).mode & 0o777).toBe(0o600);
    expect(await createFileTokenStore({ path }).get("https://as.example")).toMatchObject({
      tokens: { [RESOURCE]: { access_token: "secret-token" } },
    });
    // No temporary file is left behind.
    expect((await readdir(dir)).sort()).toEqual(
      ["tokens.json", "tokens.json." + `${process.pid}.tmp`, "victim.txt"].sort(),
    );
  });
});
