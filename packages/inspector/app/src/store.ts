// The page's state: the connections and what came live for each (wire, log, progress, elicitations).
import { useEffect, useState } from "preact/hooks";
import { get, type InspectorEvent, listen } from "./api.js";
import type { Summary, WireEntry } from "./types.js";

/** What the page holds for one connection besides its summary. */
export interface Live {
  wire: WireEntry[];
  log: Array<{ time: number; kind: string; text: string }>;
  progress: Record<string, { progress: number; total?: number; message?: string }>;
  elicitations: Array<{
    elicitId: string;
    params: { message?: string; requestedSchema?: unknown; mode?: string; url?: string };
  }>;
}

const WIRE_KEEP = 3000;
const LOG_KEEP = 1000;

/** The page-wide store. */
export const store = {
  connections: [] as Summary[],
  live: {} as Record<string, Live>,
  version: 0,
  listeners: new Set<() => void>(),
};

export function liveOf(id: string): Live {
  let live = store.live[id];
  if (!live) {
    live = { wire: [], log: [], progress: {}, elicitations: [] };
    store.live[id] = live;
  }
  return live;
}

/** Marks the store changed and re-renders its readers. */
export function changed(): void {
  store.version++;
  for (const listener of store.listeners) listener();
}

/** Puts a connection summary in (new or updated). */
export function upsert(summary: Summary): void {
  const i = store.connections.findIndex((c) => c.id === summary.id);
  if (i === -1) store.connections.push(summary);
  else store.connections[i] = summary;
  changed();
}

function onEvent(event: InspectorEvent): void {
  const id = event.connection;
  if (event.type === "state") {
    upsert(event.summary as Summary);
    return;
  }
  if (!id) return;
  const live = liveOf(id);
  const now = Date.now();
  if (event.type === "wire") {
    live.wire.push(event.entry as WireEntry);
    if (live.wire.length > WIRE_KEEP) live.wire.splice(0, live.wire.length - WIRE_KEEP);
  } else if (event.type === "log") {
    const p = event.params as { level?: string; logger?: string; data?: unknown };
    live.log.push({
      time: now,
      kind: p.level ?? "log",
      text: `${p.logger ? `[${p.logger}] ` : ""}${typeof p.data === "string" ? p.data : JSON.stringify(p.data)}`,
    });
  } else if (event.type === "stderr") {
    live.log.push({ time: now, kind: "stderr", text: String(event.line) });
  } else if (event.type === "notification") {
    const n = event.notification as { method?: string };
    live.log.push({ time: now, kind: "notification", text: n.method ?? JSON.stringify(n) });
  } else if (event.type === "progress") {
    live.progress[String(event.callId)] = event.progress as Live["progress"][string];
  } else if (event.type === "elicitation") {
    live.elicitations.push({
      elicitId: String(event.elicitId),
      params: event.params as Live["elicitations"][number]["params"],
    });
  } else if (event.type === "elicitation-done") {
    live.elicitations = live.elicitations.filter((e) => e.elicitId !== event.elicitId);
  }
  if (live.log.length > LOG_KEEP) live.log.splice(0, live.log.length - LOG_KEEP);
  changed();
}

/** Starts the store: the connections the inspector already has, then the live stream. */
export async function startStore(): Promise<void> {
  listen(onEvent);
  const { connections } = await get<{ connections: Summary[] }>("connections");
  for (const c of connections) upsert(c);
  for (const c of connections) {
    const { entries } = await get<{ entries: WireEntry[] }>(`connections/${c.id}/wire`);
    const live = liveOf(c.id);
    const seen = new Set(live.wire.map((e) => e.seq));
    live.wire = [...entries.filter((e) => !seen.has(e.seq)), ...live.wire].sort((a, b) => a.seq - b.seq);
  }
  changed();
}

/** Re-renders the calling component on every store change. */
export function useStore(): number {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const listener = () => setVersion(store.version);
    store.listeners.add(listener);
    return () => {
      store.listeners.delete(listener);
    };
  }, []);
  return store.version;
}
