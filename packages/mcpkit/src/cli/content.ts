// How the CLI prints what a tool or a resource returned: text as text (made safe for the terminal),
// binary contents as a one-line summary (`[image/png, 6.1 KB]`), written to a folder with `--save DIR`.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ContentBlock } from "@mcpkit/protocol";
import { terminalSafe } from "./terminal-text.js";

const EXTENSIONS: Record<string, string> = {
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "image/svg+xml": ".svg",
  "audio/wav": ".wav",
  "audio/x-wav": ".wav",
  "audio/mpeg": ".mp3",
  "audio/ogg": ".ogg",
  "application/gzip": ".gz",
  "application/pdf": ".pdf",
  "application/json": ".json",
  "application/zip": ".zip",
  "text/plain": ".txt",
};

/** A size the way people read it: `57 B`, `6.1 KB`, `2.4 MB` (powers of 1024). */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Writes binary contents into a folder (`--save DIR`), one file each, named after what produced it
 * (`get-tiny-image-1.png`); only the folder given is written to, whatever names the server chose.
 */
export interface BinarySaver {
  /** Writes the bytes; resolves with the file's path. */
  save(bytes: Uint8Array, mimeType: string | undefined): Promise<string>;
}

/**
 * A saver into `dir` (created when missing; relative to `cwd`) whose files are named `<base>-<n><ext>`;
 * the paths it reports are `dir` as given joined with the name.
 */
export function binarySaver(dir: string, base: string, cwd: string): BinarySaver {
  let count = 0;
  // Only letters, digits, dot, dash and underscore reach the file name: no separator, no `..`.
  const stem = base.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "") || "content";
  return {
    async save(bytes, mimeType) {
      const folder = path.resolve(cwd, dir);
      await mkdir(folder, { recursive: true });
      const ext = EXTENSIONS[mimeType?.split(";")[0]?.trim().toLowerCase() ?? ""] ?? ".bin";
      const name = `${stem}-${++count}${ext}`;
      await writeFile(path.join(folder, name), bytes);
      return path.join(dir, name);
    },
  };
}

async function summary(
  data: string,
  mimeType: string | undefined,
  where: string | undefined,
  saver: BinarySaver | undefined,
): Promise<string> {
  const bytes = Buffer.from(data, "base64");
  const type = mimeType ?? "application/octet-stream";
  const saved = saver ? ` → ${await saver.save(bytes, mimeType)}` : "";
  return terminalSafe(`[${type}, ${byteSize(bytes.length)}${where ? `: ${where}` : ""}${saved}]`);
}

/** One resource's contents as printed: its text, or a summary of its bytes naming its URI. */
export function renderResourceContents(
  contents: { uri: string; mimeType?: string; text?: unknown; blob?: unknown },
  saver: BinarySaver | undefined,
): Promise<string> {
  if (typeof contents.text === "string") return Promise.resolve(terminalSafe(contents.text));
  return summary(
    typeof contents.blob === "string" ? contents.blob : "",
    contents.mimeType,
    contents.uri,
    saver,
  );
}

/**
 * A tool result's content parts as printed, one after the other: text parts as text, images and audio
 * as `[image/png, 6.1 KB]`, embedded resources as their text or summary, resource links as
 * `[link: uri]`, anything else as its JSON. All server text is made safe for the terminal.
 */
export async function renderParts(
  parts: readonly ContentBlock[],
  saver: BinarySaver | undefined,
): Promise<string> {
  const lines: string[] = [];
  for (const part of parts) {
    const p = part as ContentBlock & Record<string, unknown>;
    if (p.type === "text" && typeof p.text === "string") lines.push(terminalSafe(p.text));
    else if ((p.type === "image" || p.type === "audio") && typeof p.data === "string")
      lines.push(
        await summary(p.data, typeof p.mimeType === "string" ? p.mimeType : undefined, undefined, saver),
      );
    else if (p.type === "resource" && typeof p.resource === "object" && p.resource !== null)
      lines.push(await renderResourceContents(p.resource as { uri: string }, saver));
    else if (p.type === "resource_link" && typeof p.uri === "string")
      lines.push(terminalSafe(`[link: ${p.uri}${typeof p.name === "string" ? ` (${p.name})` : ""}]`));
    else lines.push(terminalSafe(JSON.stringify(part)));
  }
  return lines.join("\n");
}
