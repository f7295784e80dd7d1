import { describe, expect, it } from "vitest";
import { createLoopbackRedirect } from "../src/node.js";

describe("createLoopbackRedirect", () => {
  it("listens on 127.0.0.1 and resolves with the URL the browser was sent back to", async () => {
    const opened: URL[] = [];
    const loopback = await createLoopbackRedirect({
      openUrl: async (url) => {
        opened.push(url);
        // Stand-in for the browser: the authorization server redirects to the loopback URI.
        const back = new URL(loopback.redirectUri);
        back.searchParams.set("code", "abc");
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        const page = await fetch(back);
        expect(page.status).toBe(200);
        await page.text();
      },
    });
    try {
      expect(loopback.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect((await fetch(new URL("/other", loopback.redirectUri))).status).toBe(404);
      const result = await loopback.onRedirect(new URL("https://as.example/authorize?state=s1"));
      expect(result.searchParams.get("code")).toBe("abc");
      expect(result.searchParams.get("state")).toBe("s1");
      expect(opened).toHaveLength(1);
    } finally {
      await loopback.close();
    }
    await loopback.close(); // idempotent
    await expect(loopback.onRedirect(new URL("https://as.example/a"))).rejects.toThrow(/closed/);
  });

  it("rejects on timeout and on abort", async () => {
    const loopback = await createLoopbackRedirect({ timeoutMs: 50, openUrl: () => {} });
    try {
      await expect(loopback.onRedirect(new URL("https://as.example/a"))).rejects.toThrow(
        /no authorization redirect/,
      );
      const controller = new AbortController();
      const pending = loopback.onRedirect(new URL("https://as.example/a"), { signal: controller.signal });
      controller.abort(new Error("user cancelled"));
      await expect(pending).rejects.toThrow("user cancelled");
    } finally {
      await loopback.close();
    }
  });

  it("rejects when opening the URL fails", async () => {
    const loopback = await createLoopbackRedirect({
      openUrl: () => {
        throw new Error("no browser");
      },
    });
    try {
      await expect(loopback.onRedirect(new URL("https://as.example/a"))).rejects.toThrow("no browser");
    } finally {
      await loopback.close();
    }
  });
});
