// The local server's guard, with plain fetch: no token, a wrong token, another Origin or Host → 403; the
// token in the URL once → an HttpOnly SameSite=Strict cookie; loopback only.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningInspector, startInspector } from "../src/index.js";
import { buildPage } from "./page-build.js";

let inspector: RunningInspector;

beforeAll(async () => {
  inspector = await startInspector({ appDir: await buildPage() });
});
afterAll(() => inspector?.close());

/** A raw request (fetch cannot set Host or Origin freely). */
function raw(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: inspector.port, path, headers }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the inspector's access rules", () => {
  it("listens on 127.0.0.1 only and prints a URL with a 64-hex-digit token", () => {
    expect(inspector.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
  });

  it("refuses the page, the API and the event stream without the token", async () => {
    for (const path of ["/", "/index.html", "/api/connections", "/api/events"]) {
      const res = await fetch(`${inspector.origin}${path}`);
      expect(res.status, path).toBe(403);
      await res.body?.cancel();
    }
    const wrong = await fetch(`${inspector.origin}/?token=${"0".repeat(64)}`);
    expect(wrong.status).toBe(403);
    const post = await fetch(`${inspector.origin}/api/connections`, { method: "POST", body: "{}" });
    expect(post.status).toBe(403);
  });

  it("takes the token from the URL once, then from an HttpOnly SameSite=Strict cookie", async () => {
    const first = await fetch(inspector.url, { redirect: "manual" });
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("/");
    const cookie = first.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const pair = cookie.split(";")[0] ?? "";
    const page = await fetch(`${inspector.origin}/`, { headers: { cookie: pair } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
    expect(await page.text()).toContain('<div id="root">');
    const api = await fetch(`${inspector.origin}/api/connections`, { headers: { cookie: pair } });
    expect(await api.json()).toEqual({ connections: [] });
  });

  it("refuses another Origin, another Host and a cross-site fetch even with the token", async () => {
    const auth = { authorization: `Bearer ${inspector.token}` };
    const ok = await raw("/api/connections", { ...auth, host: `127.0.0.1:${inspector.port}` });
    expect(ok.status).toBe(200);
    const origin = await raw("/api/connections", {
      ...auth,
      host: `127.0.0.1:${inspector.port}`,
      origin: "http://evil.example",
    });
    expect(origin.status).toBe(403);
    expect(origin.body).toMatch(/Origin http:\/\/evil\.example/);
    const rebinding = await raw("/api/connections", { ...auth, host: `evil.example:${inspector.port}` });
    expect(rebinding.status).toBe(403);
    const site = await raw("/api/connections", {
      ...auth,
      host: `127.0.0.1:${inspector.port}`,
      "sec-fetch-site": "cross-site",
    });
    expect(site.status).toBe(403);
  });

  it("answers a malformed API request with a 400 and goes on", async () => {
    const headers = { authorization: `Bearer ${inspector.token}`, "content-type": "application/json" };
    const bad = await fetch(`${inspector.origin}/api/connections`, {
      method: "POST",
      headers,
      body: "{not json",
    });
    expect(bad.status).toBe(400);
    const target = await fetch(`${inspector.origin}/api/connections`, {
      method: "POST",
      headers,
      body: JSON.stringify({ target: { kind: "ftp" } }),
    });
    expect(target.status).toBe(400);
    expect((await fetch(`${inspector.origin}/api/connections`, { headers })).status).toBe(200);
  });
});
