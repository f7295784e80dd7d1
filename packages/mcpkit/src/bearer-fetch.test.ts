import { describe, expect, it } from "vitest";
import { withBearerToken } from "./bearer-fetch.js";

function recording() {
  const calls: Array<{ input: string | URL | Request; init: RequestInit | undefined }> = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ input, init });
    return new Response(null, { status: 401 });
  };
  return { calls, fetch };
}

describe("withBearerToken", () => {
  it("adds the token to a plain header record, replacing an Authorization of any case", async () => {
    const { calls, fetch } = recording();
    const wrapped = withBearerToken("t0k", fetch);
    const init: RequestInit = {
      method: "POST",
      body: "x",
      headers: { Authorization: "Basic old", accept: "a" },
    };
    await wrapped("http://h/mcp", init);
    expect(calls[0]!.init).toEqual({
      method: "POST",
      body: "x",
      headers: { accept: "a", authorization: "Bearer t0k" },
    });
    // The caller's init is left as it was.
    expect(init.headers).toEqual({ Authorization: "Basic old", accept: "a" });
  });

  it("sets it on Headers and header lists, and on a request with no init", async () => {
    const { calls, fetch } = recording();
    const wrapped = withBearerToken("t", fetch);
    await wrapped("http://h/", { headers: new Headers({ authorization: "x", a: "1" }) });
    await wrapped("http://h/", { headers: [["a", "2"]] });
    await wrapped(new Request("http://h/", { headers: { a: "3" } }));
    const seen = calls.map((c) => new Headers(c.init?.headers));
    expect(seen.map((h) => [h.get("authorization"), h.get("a")])).toEqual([
      ["Bearer t", "1"],
      ["Bearer t", "2"],
      ["Bearer t", "3"],
    ]);
  });

  it("returns a 401 as it is, sending once", async () => {
    const { calls, fetch } = recording();
    const response = await withBearerToken("t", fetch)("http://h/", { method: "GET" });
    expect(response.status).toBe(401);
    expect(calls).toHaveLength(1);
  });
});
