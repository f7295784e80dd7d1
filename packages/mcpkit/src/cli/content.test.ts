import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { binarySaver, byteSize, renderParts } from "./content.js";

describe("CLI content rendering", () => {
  it("sizes bytes the way people read them", () => {
    expect([byteSize(57), byteSize(6246), byteSize(3 * 1024 * 1024)]).toEqual(["57 B", "6.1 KB", "3.0 MB"]);
  });

  it("summarises binary parts and writes them with --save, only inside the folder", async () => {
    const data = Buffer.alloc(6246, 7).toString("base64");
    const parts = [
      { type: "text" as const, text: "here:" },
      { type: "image" as const, data, mimeType: "image/png" },
      { type: "resource" as const, resource: { uri: "x://a", mimeType: "application/gzip", blob: "AAEC" } },
      { type: "resource_link" as const, uri: "x://b", name: "b" },
    ];
    expect(await renderParts(parts, undefined)).toBe(
      "here:\n[image/png, 6.1 KB]\n[application/gzip, 3 B: x://a]\n[link: x://b (b)]",
    );
    const cwd = await mkdtemp(path.join(tmpdir(), "mcpkit-save-"));
    try {
      const saver = binarySaver("out", "../../etc/evil tool", cwd);
      expect(await renderParts(parts.slice(1, 2), saver)).toBe(
        "[image/png, 6.1 KB → out/etc_evil_tool-1.png]",
      );
      expect((await readFile(path.join(cwd, "out", "etc_evil_tool-1.png"))).length).toBe(6246);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
