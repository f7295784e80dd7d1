import type { SharedSessionState } from "../server-like.js";
import type { SessionRecord, SessionStore } from "../session-store.js";

/**
 * The session's state as the app (the server) reads and writes it, handed to `connect` as
 * `info.sharedSession` (a {@link SharedSessionState}: the server's `SharedSession` seam, matched structurally). Fields are
 * refreshed from the record every request reads anyway; own writes are applied locally at once.
 */
export class SharedSessionHandle implements SharedSessionState {
  fields: Record<string, string> = {};
  private revision = -1;
  private listeners: Array<() => void> = [];

  constructor(
    private readonly sessionId: string,
    private readonly store: SessionStore,
    readonly requestIdPrefix: string,
  ) {}

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  async write(changes: Record<string, string | null>): Promise<void> {
    const revision = await this.store.update(this.sessionId, changes);
    if (revision === undefined) throw new Error(`Session ${this.sessionId} has ended`);
    for (const name in changes) {
      const value = changes[name];
      if (value === null || value === undefined) delete this.fields[name];
      else this.fields[name] = value;
    }
    // Another instance wrote in between: leave the revision stale, so the next request's record is taken.
    if (revision === this.revision + 1) this.revision = revision;
  }

  /** The record was just created (revision 0, no fields). */
  created(): void {
    this.revision = 0;
  }

  /**
   * Applies changes another instance made, when they are the next revision; otherwise (one was missed)
   * returns false and the caller reads the record.
   */
  apply(revision: number, changes: Readonly<Record<string, string | null>>): boolean {
    if (revision <= this.revision) return true;
    if (revision !== this.revision + 1) return false;
    this.revision = revision;
    for (const name in changes) {
      const value = changes[name];
      if (value === null || value === undefined) delete this.fields[name];
      else this.fields[name] = value;
    }
    for (const listener of this.listeners) listener();
    return true;
  }

  /** Takes the record's fields when they changed since last seen, telling the app. */
  refresh(record: SessionRecord): void {
    if (record.revision === this.revision) return;
    this.revision = record.revision;
    this.fields = Object.assign({}, record.fields);
    for (const listener of this.listeners) listener();
  }
}
