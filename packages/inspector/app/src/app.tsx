// The inspector's page: a tab per connection, and a form to open another.
import { useState } from "preact/hooks";
import { post } from "./api.js";
import { ConnectionView } from "./connection-view.js";
import { store, upsert, useStore } from "./store.js";
import type { Summary } from "./types.js";

function targetOf(text: string, mode: string): unknown {
  const trimmed = text.trim();
  if (/^https?:\/\//i.test(trimmed)) return { kind: "http", url: trimmed, mode };
  const [command, ...args] = trimmed.split(/\s+/);
  return { kind: "stdio", command, args };
}

function NewConnection(props: { onOpened: (id: string) => void }) {
  const [text, setText] = useState("");
  const [mode, setMode] = useState("auto");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const open = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const summary = await post<Summary>("connections", { target: targetOf(text, mode) });
      upsert(summary);
      props.onOpened(summary.id);
    } catch (x) {
      setError((x as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="new-connection" id="new-connection" onSubmit={open}>
      <input
        id="target"
        placeholder="a URL (https://…/mcp) or a command (node server.js)"
        value={text}
        onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
      />
      <select
        id="mode"
        value={mode}
        onChange={(e) => setMode((e.currentTarget as HTMLSelectElement).value)}
        title="HTTP transport"
      >
        <option value="auto">HTTP: auto</option>
        <option value="modern">Streamable HTTP, modern</option>
        <option value="legacy">Streamable HTTP, legacy</option>
        <option value="sse">HTTP+SSE (2024-11-05)</option>
      </select>
      <button type="submit" id="connect" disabled={busy || text.trim() === ""}>
        {busy ? "connecting…" : "connect"}
      </button>
      {error ? <span class="error">{error}</span> : null}
    </form>
  );
}

/** The whole page. */
export function App() {
  useStore();
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const current = store.connections.find((c) => c.id === selected) ?? store.connections[0];
  return (
    <div class="app">
      <header>
        <h1>mcpkit inspector</h1>
        <NewConnection onOpened={setSelected} />
      </header>
      <nav class="tabs" id="tabs">
        {store.connections.map((c) => (
          <button
            type="button"
            key={c.id}
            data-tab={c.id}
            class={`tab state-${c.state} ${c === current ? "selected" : ""}`}
            onClick={() => setSelected(c.id)}
            title={c.label}
          >
            {c.serverInfo?.name ?? c.label} <span class="tab-state">{c.state}</span>
          </button>
        ))}
      </nav>
      <main>
        {current ? (
          <ConnectionView key={current.id} summary={current} />
        ) : (
          <p class="muted">Connect to a server to begin.</p>
        )}
      </main>
    </div>
  );
}
