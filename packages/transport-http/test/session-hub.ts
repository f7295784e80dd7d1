// An in-memory SessionStore shared by several handlers in one process: what a Redis store does across
// processes (records, GET stream claims, kept messages, signals), so the handler's shared-session paths are
// tested without Redis. Signals arrive on a later microtask, as pub/sub messages arrive later.
import type { JsonRpcMessage } from "@mcpkit/jsonrpc";
import type { SessionRecord, SessionSignal, SessionStore } from "../src/index.js";

interface HubRecord {
  protocolVersion: string;
  owner: string;
  revision: number;
  fields: Record<string, string>;
  holder: string | undefined;
  kept: JsonRpcMessage[];
}

export function createSessionHub() {
  const records = new Map<string, HubRecord>();
  const receivers = new Map<string, (signal: SessionSignal) => void>();
  let count = 0;
  const deliver = (instance: string, signal: SessionSignal): boolean => {
    const receiver = receivers.get(instance);
    if (receiver === undefined) return false;
    queueMicrotask(() => receiver(signal));
    return true;
  };

  function store(): SessionStore & { gone(): void } {
    const instanceId = `i${++count}`;
    return {
      instanceId,
      gone: () => receivers.delete(instanceId),
      listen: (fn) => void receivers.set(instanceId, fn),
      async create(sessionId, protocolVersion, _ttl, owner = "anonymous") {
        records.set(sessionId, {
          protocolVersion,
          owner,
          revision: 0,
          fields: {},
          holder: undefined,
          kept: [],
        });
      },
      async touch(sessionId): Promise<SessionRecord | undefined> {
        const r = records.get(sessionId);
        return (
          r && {
            protocolVersion: r.protocolVersion,
            owner: r.owner,
            revision: r.revision,
            fields: { ...r.fields },
          }
        );
      },
      async update(sessionId, changes) {
        const r = records.get(sessionId);
        if (r === undefined) return undefined;
        for (const [name, value] of Object.entries(changes)) {
          if (value === null) delete r.fields[name];
          else r.fields[name] = value;
        }
        r.revision++;
        if (r.holder !== undefined && r.holder !== instanceId) {
          deliver(r.holder, { kind: "changed", sessionId, revision: r.revision, changes });
        }
        return r.revision;
      },
      async end(sessionId) {
        records.delete(sessionId);
        for (const instance of receivers.keys()) deliver(instance, { kind: "ended", sessionId });
      },
      async claimStream(sessionId) {
        const r = records.get(sessionId);
        if (r === undefined) return [];
        r.holder = instanceId;
        return r.kept.splice(0);
      },
      async releaseStream(sessionId) {
        const r = records.get(sessionId);
        if (r?.holder === instanceId) r.holder = undefined;
      },
      async toStream(sessionId, message) {
        const r = records.get(sessionId);
        if (r === undefined) return;
        if (r.holder !== undefined && deliver(r.holder, { kind: "outbound", sessionId, message })) return;
        r.holder = undefined;
        r.kept.push(message);
      },
      async sendTo(instance, signal) {
        return deliver(instance, signal);
      },
      async broadcast(signal) {
        for (const instance of receivers.keys()) deliver(instance, signal);
      },
    };
  }
  return { store, records };
}
