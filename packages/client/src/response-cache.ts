/** One cached result, as a {@link ResponseCacheStore} keeps it. Plain JSON: a store may serialize it. */
export interface CachedResponse {
  /** The result (for a list, every item of every page). Treat as read-only: it is handed out as is. */
  value: unknown;
  /** Epoch ms after which the entry is stale; `null` = until a notification invalidates it (legacy). */
  expiresAt: number | null;
  /** The server's `cacheScope`; legacy results (which carry none) count as `private`. */
  scope: "public" | "private";
  /** For a `private` entry: the authorization context it may be served to. */
  context?: string;
}

/**
 * Where the client's response cache keeps entries. Implement it over a shared store (Redis, IndexedDB, …)
 * to let several clients of one server share `public` results; the default is
 * {@link createMemoryResponseCache}, private to one client.
 *
 * Keys are opaque strings whose prefixes group entries (one server, one method, one resource); the client
 * never lists keys. A store may drop any entry at any time (it is a cache) and may use `expiresAt` for its
 * own expiry. Methods may return promises.
 */
export interface ResponseCacheStore {
  get(key: string): CachedResponse | undefined | Promise<CachedResponse | undefined>;
  set(key: string, entry: CachedResponse): void | Promise<void>;
  /** Deletes every entry whose key starts with `prefix` (an invalidation). */
  deletePrefix(prefix: string): void | Promise<void>;
}

/** Options of the client's response cache ({@link ClientOptions.cache}). */
export interface ResponseCacheOptions {
  /** Where entries live; default a {@link createMemoryResponseCache} of `maxEntries` for this client alone. */
  store?: ResponseCacheStore;
  /** The bound of the default store, in entries (a whole list counts as one). Default 256. */
  maxEntries?: number;
  /**
   * Names the authorization context (the user, the token's subject) of this client. A `private` result
   * is served only to a client with the same context; without one, only to this client. Set it when a
   * `store` is shared between clients of different users.
   * @see SPEC.md §3.9 Caching: `private` caches MUST NOT be shared across authorization contexts
   */
  authContext?: string;
}

/**
 * An in-memory {@link ResponseCacheStore} bounded to `maxEntries`, least recently used out first.
 * @throws RangeError when `maxEntries` is not a positive integer.
 */
export function createMemoryResponseCache(options: { maxEntries?: number } = {}): ResponseCacheStore {
  const max = options.maxEntries ?? 256;
  if (!Number.isInteger(max) || max < 1) {
    throw new RangeError(`maxEntries must be a positive integer, got ${String(max)}`);
  }
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, CachedResponse>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry !== undefined) {
        entries.delete(key);
        entries.set(key, entry);
      }
      return entry;
    },
    set(key, entry) {
      entries.delete(key);
      entries.set(key, entry);
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
    },
    deletePrefix(prefix) {
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
    },
  };
}

/**
 * @internal The cache hints of a modern result: `ttlMs` (absent, negative or not a number ⇒ 0) and
 * `cacheScope` (anything but `public` ⇒ `private`, the safe reading).
 * @see SPEC.md §3.9 Caching
 */
export function cacheHints(result: Record<string, unknown>): { ttlMs: number; scope: "public" | "private" } {
  const ttl = result.ttlMs;
  return {
    ttlMs: typeof ttl === "number" && Number.isFinite(ttl) && ttl > 0 ? Math.floor(ttl) : 0,
    scope: result.cacheScope === "public" ? "public" : "private",
  };
}

/** How many recent invalidations are remembered to judge a fetch that ran across one. */
const RECENT = 64;
const SEP = "\u0000";

/**
 * @internal The client's response cache: per server, keyed by method and the params that shape the
 * result, honouring the modern `ttlMs` / `cacheScope` hints. Invalidations (`list_changed`,
 * `resources/updated`) delete by key prefix; a fetch that ran while one of its keys was invalidated is not
 * stored (it may already be old). Disabled, it stores nothing and finds nothing.
 * @see SPEC.md §3.9 Caching
 */
export class ResponseCache {
  readonly enabled: boolean;
  readonly #store: ResponseCacheStore | undefined;
  readonly #context: string;
  /** Without a `serverKey` the entries are this client's alone (a random prefix). */
  readonly #ownId: string;
  #server: string;
  #seq = 0;
  readonly #recent: Array<{ seq: number; prefix: string }> = [];

  constructor(options: false | ResponseCacheOptions | undefined) {
    this.enabled = options !== false;
    const opts = options === false ? {} : (options ?? {});
    this.#store = !this.enabled
      ? undefined
      : (opts.store ??
        createMemoryResponseCache(opts.maxEntries === undefined ? {} : { maxEntries: opts.maxEntries }));
    this.#ownId = `client:${crypto.randomUUID()}`;
    this.#server = this.#ownId;
    this.#context = opts.authContext ?? this.#ownId;
  }

  /** Names the server the entries belong to (`ConnectOptions.serverKey`); default this client alone. */
  setServer(serverKey: string | undefined): void {
    this.#server = serverKey ?? this.#ownId;
  }

  /**
   * A new session began. Without a `serverKey` it may be another server: this client's entries go.
   * With one, the app said which server it is, and the entries stay.
   */
  async newSession(): Promise<void> {
    if (this.#store && this.#server === this.#ownId) await this.#store.deletePrefix(this.#server + SEP);
  }

  /**
   * The key of `method` with the result-shaping `params` (a stable string, e.g. JSON) on the current
   * server: the prefix of its store slots (one public, one per private context). The separator ends it,
   * so it is the prefix of no other key's slots.
   */
  key(method: string, params: string): string {
    return `${this.#server}${SEP}${method}${SEP}${params}${SEP}`;
  }

  /** A ticket for a fetch about to start: {@link put} refuses it if the key was invalidated since. */
  ticket(): number {
    return this.#seq;
  }

  /** The fresh value under `key`, if any, that this client may be served: a public one, else its own. */
  async get(key: string): Promise<unknown> {
    if (!this.#store) return undefined;
    const now = Date.now();
    // One slot per scope (and per context for private ones): one context never overwrites another's.
    for (const slot of [`${key}public`, `${key}private${SEP}${this.#context}`]) {
      const entry = await this.#store.get(slot);
      if (entry === undefined || (entry.expiresAt !== null && entry.expiresAt <= now)) continue;
      if (entry.scope === "private" && entry.context !== this.#context) continue;
      return entry.value;
    }
    return undefined;
  }

  /**
   * Stores `value` for `ttlMs` (`null`: until invalidated), unless the ttl is 0 or an invalidation of
   * `key` happened after `ticket` was taken.
   */
  async put(
    key: string,
    ticket: number,
    value: unknown,
    ttlMs: number | null,
    scope: "public" | "private",
  ): Promise<void> {
    if (!this.#store || this.#invalidatedSince(key, ticket)) return;
    // Immediately stale: whatever an earlier answer left there is older still.
    if (ttlMs === 0) return this.#store.deletePrefix(key);
    const entry: CachedResponse = {
      value,
      expiresAt: ttlMs === null ? null : Date.now() + ttlMs,
      scope,
    };
    let slot = `${key}public`;
    if (scope === "private") {
      entry.context = this.#context;
      slot = `${key}private${SEP}${this.#context}`;
    }
    await this.#store.set(slot, entry);
  }

  /** Takes a notification: `resources/updated` drops what was read of that resource. */
  onNotification(method: string, params: Record<string, unknown>): Promise<void> | undefined {
    if (method !== "notifications/resources/updated" || typeof params.uri !== "string") return undefined;
    return this.invalidate("resources/read", JSON.stringify(params.uri));
  }

  /** Forgets every entry of `method` (with `params`, when given) of the current server. */
  invalidate(method: string, params?: string): Promise<void> | undefined {
    const prefix = `${this.#server}${SEP}${method}${SEP}${params === undefined ? "" : params + SEP}`;
    this.#seq++;
    this.#recent.push({ seq: this.#seq, prefix });
    if (this.#recent.length > RECENT) this.#recent.shift();
    return this.#store ? Promise.resolve(this.#store.deletePrefix(prefix)) : undefined;
  }

  #invalidatedSince(key: string, ticket: number): boolean {
    if (ticket === this.#seq) return false;
    // Older than what is remembered: assume the worst.
    const oldest = this.#recent[0];
    if (oldest === undefined || oldest.seq > ticket + 1) return true;
    return this.#recent.some((r) => r.seq > ticket && key.startsWith(r.prefix));
  }
}
