import { describe, expect, it } from "vitest";
import { AuthError } from "../src/index.js";
import { addressClass, checkDiscoveryUrl, checkResourceMetadataUrl } from "../src/internal/url-rules.js";

const host = (url: string) => addressClass(new URL(url).hostname);

describe("address classes (from the URL's host as the URL parser normalizes it)", () => {
  it("sees loopback, private, link-local and reserved hosts in every spelling the URL parser accepts", () => {
    for (const url of [
      "http://127.0.0.1",
      "http://2130706433",
      "http://0x7f.1",
      "http://0.0.0.0",
      "http://[::1]",
    ])
      expect([url, host(url)]).toEqual([url, "loopback"]);
    for (const url of [
      "http://localhost",
      "http://api.localhost.",
      "http://[::ffff:127.0.0.1]",
      "http://[::]",
    ])
      expect([url, host(url)]).toEqual([url, "loopback"]);
    for (const url of ["http://10.0.0.1", "http://172.16.5.4", "http://192.168.1.1", "http://100.64.0.1"])
      expect([url, host(url)]).toEqual([url, "private"]);
    for (const url of ["http://[fd12::1]", "http://intranet", "http://printer.local", "http://x.internal"])
      expect([url, host(url)]).toEqual([url, "private"]);
    for (const url of ["http://169.254.169.254", "http://[fe80::1]", "http://[::ffff:169.254.169.254]"])
      expect([url, host(url)]).toEqual([url, "link-local"]);
    expect(host("http://224.0.0.1")).toBe("reserved");
    for (const url of [
      "https://auth.example.com",
      "https://8.8.8.8",
      "https://[2001:db8::1]",
      "https://172.32.0.1",
    ])
      expect([url, host(url)]).toEqual([url, "public"]);
  });
});

describe("discovery URL rules", () => {
  const refused = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe("unsafe_url");
      return (error as AuthError).message;
    }
    throw new Error("not refused");
  };
  const publicServer = new URL("https://mcp.example.com/mcp");
  const loopbackServer = new URL("http://127.0.0.1:3000/mcp");

  it("allows https to public hosts, and loopback http only for a loopback server", () => {
    expect(checkDiscoveryUrl("https://auth.example.com", publicServer, "x").host).toBe("auth.example.com");
    expect(checkDiscoveryUrl("http://localhost:4000", loopbackServer, "x").port).toBe("4000");
    expect(refused(() => checkDiscoveryUrl("http://localhost:4000", publicServer, "x"))).toMatch(
      /only https/,
    );
    expect(refused(() => checkDiscoveryUrl("http://auth.example.com", loopbackServer, "x"))).toMatch(
      /only https/,
    );
    expect(refused(() => checkDiscoveryUrl("file:///etc/passwd", loopbackServer, "x"))).toMatch(/only https/);
    expect(refused(() => checkDiscoveryUrl("https://u:p@auth.example.com", publicServer, "x"))).toMatch(
      /credentials/,
    );
    // A private server may use private hosts, not loopback or link-local ones.
    const privateServer = new URL("https://10.0.0.2/mcp");
    expect(checkDiscoveryUrl("https://10.0.0.3", privateServer, "x").host).toBe("10.0.0.3");
    expect(refused(() => checkDiscoveryUrl("https://169.254.169.254", privateServer, "x"))).toMatch(
      /link-local/,
    );
  });

  it("takes resource_metadata on the server's origin, or at the well-known path elsewhere", () => {
    expect(checkResourceMetadataUrl("https://mcp.example.com/any/where?x=1", publicServer).pathname).toBe(
      "/any/where",
    );
    expect(
      checkResourceMetadataUrl(
        "https://meta.example.com/.well-known/oauth-protected-resource/mcp",
        publicServer,
      ).host,
    ).toBe("meta.example.com");
    expect(
      refused(() => checkResourceMetadataUrl("https://meta.example.com/prm.json", publicServer)),
    ).toMatch(/only on the MCP server's origin/);
    expect(
      refused(() =>
        checkResourceMetadataUrl(
          "https://meta.example.com/.well-known/oauth-protected-resource?x=1",
          publicServer,
        ),
      ),
    ).toMatch(/only on the MCP server's origin/);
  });
});
