// Every JSON-RPC message both ways, and the HTTP exchanges under them, with a filter and a JSON export.
import { useState } from "preact/hooks";
import type { WireEntry } from "./types.js";

function matches(entry: WireEntry, filter: string, direction: string): boolean {
  if (direction !== "all" && entry.direction !== direction) return false;
  if (!filter) return true;
  const haystack =
    `${entry.method ?? ""} ${entry.text ?? ""} ${entry.http ? JSON.stringify(entry.http) : ""}`.toLowerCase();
  return haystack.includes(filter.toLowerCase());
}

function exportJson(entries: WireEntry[], label: string): void {
  const blob = new Blob([JSON.stringify(entries, null, 2)], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `wire-${label.replace(/[^a-z0-9]+/gi, "-").slice(0, 40)}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** The wire view of one connection. */
export function WireView(props: { entries: WireEntry[]; label: string }) {
  const [filter, setFilter] = useState("");
  const [direction, setDirection] = useState("all");
  const [open, setOpen] = useState<number | undefined>(undefined);
  const shown = props.entries.filter((e) => matches(e, filter, direction));
  return (
    <section class="wire">
      <div class="toolbar">
        <input
          id="wire-filter"
          placeholder="filter: method, text, header"
          value={filter}
          onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)}
        />
        <select
          id="wire-direction"
          value={direction}
          onChange={(e) => setDirection((e.currentTarget as HTMLSelectElement).value)}
        >
          <option value="all">all</option>
          <option value="out">sent</option>
          <option value="in">received</option>
          <option value="http">HTTP</option>
        </select>
        <span class="muted">
          {shown.length} of {props.entries.length}
        </span>
        <button type="button" id="wire-export" onClick={() => exportJson(shown, props.label)}>
          export JSON
        </button>
      </div>
      <table class="wire-table">
        <thead>
          <tr>
            <th>#</th>
            <th>dir</th>
            <th>era</th>
            <th>method</th>
            <th>id / status</th>
            <th>size</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((e) => (
            <>
              <tr
                key={e.seq}
                class={`wire-row wire-${e.direction}`}
                onClick={() => setOpen(open === e.seq ? undefined : e.seq)}
              >
                <td>{e.seq}</td>
                <td>{e.direction === "out" ? "→" : e.direction === "in" ? "←" : "HTTP"}</td>
                <td>{e.era}</td>
                <td>{e.http ? `${e.http.method} ${e.http.url}` : (e.method ?? "")}</td>
                <td>{e.http ? (e.http.status ?? e.http.error ?? "") : (e.id ?? "")}</td>
                <td>{e.bytes ?? ""}</td>
              </tr>
              {open === e.seq ? (
                <tr key={`${e.seq}-detail`} class="wire-detail">
                  <td colSpan={6}>
                    {e.http ? (
                      <pre>{`request headers: ${JSON.stringify(e.http.requestHeaders, null, 2)}\nresponse headers: ${JSON.stringify(e.http.responseHeaders, null, 2)}${e.http.ms !== undefined ? `\n${e.http.ms} ms` : ""}`}</pre>
                    ) : (
                      <pre>{e.text ?? ""}</pre>
                    )}
                  </td>
                </tr>
              ) : null}
            </>
          ))}
        </tbody>
      </table>
    </section>
  );
}
