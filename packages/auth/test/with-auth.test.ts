import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AuthProvider, withAuth } from "../src/index.js";

let url = "";
let close: () => Promise<void> = async () => {};
const seen: { authorization: string | undefined; body: string }[] = [];
let statuses: number[] = [];

beforeEach(async () => {
  seen.length = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.push({ authorization: req.headers.authorization, body: Buffer.concat(chunks).toString() });
    res.writeHead(statuses.shift() ?? 200).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  close = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
});

afterEach(() => close());

function counting(answer: boolean): AuthProvider & { challenged: (string | null)[]; responses: number[] } {
  let n = 0;
  const challenged: (string | null)[] = [];
  const responses: number[] = [];
  return {
    challenged,
    responses,
    headers: async () => ({ authorization: `Bearer t${n}` }),
    onUnauthorized: async (_response, request) => {
      challenged.push(request?.authorization ?? null);
      n++;
      return answer;
    },
    onResponse: (response) => responses.push(response.status),
  };
}

describe("withAuth", () => {
  it("adds the provider's headers, re-sends the same body after a 401 and a 403, and reports every response", async () => {
    statuses = [401, 403];
    const provider = counting(true);
    const res = await withAuth(provider)(url, {
      method: "POST",
      body: "payload",
      headers: { "x-keep": "1" },
    });
    expect(res.status).toBe(200);
    expect(seen).toEqual([
      { authorization: "Bearer t0", body: "payload" },
      { authorization: "Bearer t1", body: "payload" },
      { authorization: "Bearer t2", body: "payload" },
    ]);
    expect(provider.challenged).toEqual(["Bearer t0", "Bearer t1"]);
    expect(provider.responses).toEqual([401, 403, 200]);
  });

  it("returns the 401 when the provider cannot help", async () => {
    statuses = [401];
    const res = await withAuth(counting(false))(url, { method: "POST", body: "x" });
    expect(res.status).toBe(401);
    expect(seen).toHaveLength(1);
  });

  it("bounds the re-sends", async () => {
    statuses = [401, 401, 401, 401];
    const res = await withAuth(counting(true), { maxRetries: 2 })(url, { method: "POST", body: "x" });
    expect(res.status).toBe(401);
    expect(seen).toHaveLength(3);
  });

  it("with maxRetries 1, re-sends once after a 401 and then returns the next 401 as it is", async () => {
    statuses = [401, 401];
    const provider = counting(true);
    const res = await withAuth(provider, { maxRetries: 1 })(url, { method: "GET" });
    expect(res.status).toBe(401);
    expect(seen.map((s) => s.authorization)).toEqual(["Bearer t0", "Bearer t1"]);
    expect(provider.challenged).toEqual(["Bearer t0"]);
  });

  it("does not replay a stream body", async () => {
    statuses = [401];
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode("once"));
        c.close();
      },
    });
    const res = await withAuth(counting(true))(url, { method: "POST", body, duplex: "half" } as RequestInit);
    expect(res.status).toBe(401);
    expect(seen).toHaveLength(1);
  });

  it("rejects with the provider's error", async () => {
    statuses = [401];
    const failing: AuthProvider = {
      headers: async () => ({}),
      onUnauthorized: async () => Promise.reject(new Error("refused")),
    };
    await expect(withAuth(failing)(url, { method: "POST", body: "x" })).rejects.toThrow("refused");
  });
});
