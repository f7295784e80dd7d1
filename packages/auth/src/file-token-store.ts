import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { IssuerCredentials, TokenStore } from "./token-store.js";

/** Options of {@link createFileTokenStore}. */
export interface FileTokenStoreOptions {
  /** The file; default {@link defaultTokenStorePath} of `env`. */
  path?: string;
  /** Where the default path's variables are read; default `process.env`. */
  env?: Record<string, string | undefined>;
}

/** A {@link TokenStore} kept in one JSON file, with a way to list and forget what it holds. */
export interface FileTokenStore extends TokenStore {
  /** The file the store reads and writes. */
  readonly path: string;
  /** Every entry: one per authorization server (issuer) and resource the file holds a token for. */
  list(): Promise<Array<{ issuer: string; resource: string; expiresAt: number | undefined }>>;
  /**
   * Forgets the tokens for `resource` (its canonical URI or the URL as given) at every authorization
   * server, or everything when `resource` is undefined (the file is removed). Client registrations stay
   * unless nothing is left for their issuer. Resolves with how many entries were removed.
   */
  forget(resource?: string): Promise<number>;
}

interface FileShape {
  version: 1;
  issuers: Record<string, IssuerCredentials>;
}

/**
 * Where the file store lives by default: `$MCPKIT_CONFIG_DIR/tokens.json` when that variable is set
 * (tests point it at a temp dir), else `$XDG_CONFIG_HOME/mcpkit/tokens.json`, else
 * `~/.config/mcpkit/tokens.json`.
 */
export function defaultTokenStorePath(env: Record<string, string | undefined> = process.env): string {
  if (env.MCPKIT_CONFIG_DIR) return join(env.MCPKIT_CONFIG_DIR, "tokens.json");
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "mcpkit", "tokens.json");
}

/**
 * A token store on disk, for hosts whose logins should outlive the process (the `mcpkit` CLI uses it by
 * default). One JSON file holds, per authorization server issuer, the client registration and the
 * tokens per resource (RFC 8707), so an `OAuthProvider` given this store reuses a token on the next run
 * and refreshes an expired one with its refresh token before asking for a new login.
 *
 * Guarantees: the file is created with mode 0600 (its directory 0700) and rewritten whole through a
 * temporary file (a random name, created exclusively with mode 0600) and a rename, so a reader never
 * sees half a file and no one can plant a file or symlink at the temporary name beforehand; a missing file reads as empty; a file
 * that is not valid JSON is treated as empty and replaced on the next write. It does NOT encrypt the
 * tokens (use a keychain-backed store for that) or lock against two processes writing at once (the
 * last write wins).
 */
export function createFileTokenStore(options: FileTokenStoreOptions = {}): FileTokenStore {
  const path = options.path ?? defaultTokenStorePath(options.env);

  async function load(): Promise<FileShape> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, issuers: {} };
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as Partial<FileShape>;
      if (typeof parsed.issuers === "object" && parsed.issuers !== null)
        return { version: 1, issuers: parsed.issuers };
    } catch {
      // A damaged file holds nothing usable: start over rather than fail every command.
    }
    return { version: 1, issuers: {} };
  }

  async function save(data: FileShape): Promise<void> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    // A random name created exclusively (`wx` refuses an existing file or symlink): a name another user
    // could guess would let them plant a symlink there and have the tokens written where they point.
    const temp = `${path}.${randomBytes(12).toString("hex")}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600, flag: "wx" });
      // The mode given to writeFile is masked by the umask; set it outright.
      await chmod(temp, 0o600);
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  return {
    path,
    async get(issuer) {
      return (await load()).issuers[issuer];
    },
    async set(issuer, credentials) {
      const data = await load();
      data.issuers[issuer] = structuredClone(credentials);
      await save(data);
    },
    async delete(issuer) {
      const data = await load();
      if (!(issuer in data.issuers)) return;
      delete data.issuers[issuer];
      await save(data);
    },
    async list() {
      const data = await load();
      return Object.entries(data.issuers).flatMap(([issuer, credentials]) =>
        Object.entries(credentials.tokens ?? {}).map(([resource, tokens]) => ({
          issuer,
          resource,
          expiresAt: tokens.expires_at,
        })),
      );
    },
    async forget(resource) {
      if (resource === undefined) {
        const count = (await this.list()).length;
        await rm(path, { force: true });
        return count;
      }
      const wanted = new Set([resource, canonical(resource)]);
      const data = await load();
      let removed = 0;
      for (const [issuer, credentials] of Object.entries(data.issuers)) {
        for (const key of Object.keys(credentials.tokens ?? {})) {
          if (!wanted.has(key) && !wanted.has(canonical(key))) continue;
          delete credentials.tokens![key];
          removed++;
        }
        if (Object.keys(credentials.tokens ?? {}).length === 0 && removed > 0) delete data.issuers[issuer];
      }
      if (removed > 0) await save(data);
      return removed;
    },
  };
}

// RFC 8707 canonical form for comparison: lower-case scheme and host, no fragment, no trailing slash.
function canonical(uri: string): string {
  try {
    const url = new URL(uri);
    url.hash = "";
    return url.href.endsWith("/") ? url.href.slice(0, -1) : url.href;
  } catch {
    return uri;
  }
}
