import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Tool } from "@mcpkit/protocol";

/** A tool whose definition changed upstream since it was approved: held back until approved again. */
export interface HeldTool {
  /** The name the gateway offers it by. */
  readonly name: string;
  readonly upstream: string;
  /** The approved definition's fingerprint and the one the upstream offers now. */
  readonly approved: string;
  readonly offered: string;
}

/** Where approved tool definitions live: a JSON file, or anything that loads and saves the same map. */
export interface PinStore {
  /** The approved fingerprint by exposed tool name. */
  load(): Promise<Record<string, string>>;
  save(pins: Record<string, string>): Promise<void>;
}

/**
 * A pin store in a JSON file (`{ "version": 1, "tools": { name: fingerprint } }`), written atomically
 * (a temporary file renamed over it). A missing file is an empty store.
 */
export function createFilePinStore(file: string): PinStore {
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
        throw error;
      }
      const parsed = JSON.parse(text) as { tools?: Record<string, string> };
      if (typeof parsed !== "object" || parsed === null || typeof parsed.tools !== "object") {
        throw new Error(`${file}: not a pinning file (no "tools" object)`);
      }
      return { ...parsed.tools };
    },
    async save(pins) {
      await mkdir(dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify({ version: 1, tools: pins }, null, 2)}\n`);
      await rename(temporary, file);
    },
  };
}

/**
 * The fingerprint of what a user approves in a tool: its title, description, schemas and annotations
 * (SHA-256 of their canonical JSON, keys sorted). The name is the key, so it is not part of it.
 */
export function toolFingerprint(tool: Tool): string {
  const approved = {
    title: tool.title ?? null,
    description: tool.description ?? null,
    inputSchema: tool.inputSchema ?? null,
    outputSchema: tool.outputSchema ?? null,
    annotations: tool.annotations ?? null,
  };
  return createHash("sha256").update(canonicalJson(approved)).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Tool-definition pinning: the first definition of a tool seen is approved (trust on first use) and
 * saved; a later different one is held back (the tool is not offered) and reported until
 * {@link Pinning.approve} accepts it.
 */
export class Pinning {
  private pins: Record<string, string> = {};
  private readonly heldNow = new Map<string, HeldTool>();

  constructor(private readonly store: PinStore) {}

  async load(): Promise<void> {
    this.pins = await this.store.load();
  }

  /**
   * Sorts tools into offered and held: new tools are pinned (and saved), matching ones pass, changed
   * ones are held back.
   */
  async check<T extends { name: string; upstream: string; item: Tool }>(tools: readonly T[]): Promise<T[]> {
    const offered: T[] = [];
    let added = false;
    this.heldNow.clear();
    for (const tool of tools) {
      const fingerprint = toolFingerprint(tool.item);
      const approved = this.pins[tool.name];
      if (approved === undefined) {
        this.pins[tool.name] = fingerprint;
        added = true;
        offered.push(tool);
      } else if (approved === fingerprint) offered.push(tool);
      else
        this.heldNow.set(tool.name, {
          name: tool.name,
          upstream: tool.upstream,
          approved,
          offered: fingerprint,
        });
    }
    if (added) await this.store.save(this.pins);
    return offered;
  }

  /** The tools held back now, with both fingerprints. */
  held(): HeldTool[] {
    return [...this.heldNow.values()];
  }

  /**
   * Approves the definition a held tool has now (saved to the store). The gateway offers it once it
   * re-checks its catalog ({@link Gateway.approveTool} does both).
   * @throws Error when no tool of that name is held.
   */
  async approve(name: string): Promise<void> {
    const held = this.heldNow.get(name);
    if (!held)
      throw new Error(
        `no tool named "${name}" is held back (held: ${[...this.heldNow.keys()].join(", ") || "none"})`,
      );
    this.pins[name] = held.offered;
    this.heldNow.delete(name);
    await this.store.save(this.pins);
  }
}
