// One connection's tab: its info, tools, resources, prompts, log and wire; the doctor when it failed.
import { useState } from "preact/hooks";
import { post } from "./api.js";
import { DoctorView } from "./doctor-view.js";
import { ElicitationView } from "./elicitation-view.js";
import { PromptsView, ResourcesView } from "./resources-view.js";
import { liveOf, upsert, useStore } from "./store.js";
import { ToolsView } from "./tools-view.js";
import type { Summary } from "./types.js";
import { WireView } from "./wire-view.js";

const VIEWS = ["info", "tools", "resources", "prompts", "log", "wire"] as const;
type View = (typeof VIEWS)[number];

const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

function InfoView(props: { summary: Summary }) {
  const s = props.summary;
  return (
    <section class="info" id="server-info">
      <dl>
        <dt>server</dt>
        <dd id="info-server">
          {s.serverInfo?.name ?? "?"} {s.serverInfo?.version ?? ""}
        </dd>
        <dt>era</dt>
        <dd id="info-era">{s.era ?? "?"}</dd>
        <dt>protocol version</dt>
        <dd id="info-version">{s.protocolVersion ?? "?"}</dd>
        <dt>transport</dt>
        <dd>
          {s.target.kind}
          {s.target.kind === "http" ? ` (mode ${String(s.target.mode ?? "auto")})` : ""}
        </dd>
      </dl>
      {s.instructions ? (
        <>
          <h3>instructions</h3>
          <pre>{s.instructions}</pre>
        </>
      ) : null}
      <h3>capabilities</h3>
      <pre id="info-capabilities">{JSON.stringify(s.capabilities ?? {}, null, 2)}</pre>
      {s.discovery ? (
        <>
          <h3>discovery (server/discover)</h3>
          <pre>{JSON.stringify(s.discovery, null, 2)}</pre>
        </>
      ) : null}
    </section>
  );
}

function LogView(props: { connection: string }) {
  useStore();
  const [error, setError] = useState<string | undefined>(undefined);
  const log = liveOf(props.connection).log;
  return (
    <section class="log" id="log">
      <div class="toolbar">
        <label for="log-level">server log level</label>
        <select
          id="log-level"
          onChange={(e) =>
            post(`connections/${props.connection}/log-level`, {
              level: (e.currentTarget as HTMLSelectElement).value,
            }).catch((x: Error) => setError(x.message))
          }
        >
          {LEVELS.map((l) => (
            <option key={l}>{l}</option>
          ))}
        </select>
        {error ? <span class="error">{error}</span> : null}
      </div>
      <ul class="log-lines">
        {log.map((line, i) => (
          <li key={i} class={`log-${line.kind}`}>
            <span class="tag">{line.kind}</span> {line.text}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The tab of one connection. */
export function ConnectionView(props: { summary: Summary }) {
  useStore();
  const [view, setView] = useState<View>("tools");
  const s = props.summary;
  const live = liveOf(s.id);
  const retry = () => {
    void post<Summary>(`connections/${s.id}/connect`).then(upsert);
  };
  return (
    <div class="connection" data-connection={s.id} data-state={s.state}>
      {live.elicitations.map((request) => (
        <ElicitationView key={request.elicitId} connection={s.id} request={request} />
      ))}
      {s.state === "connecting" ? <p class="muted">connecting…</p> : null}
      {s.state === "failed" && s.diagnosis ? <DoctorView diagnosis={s.diagnosis} onRetry={retry} /> : null}
      {s.state === "closed" ? (
        <p class="warning" id="closed-reason">
          {s.closedReason ?? "the connection closed"}{" "}
          <button type="button" onClick={retry}>
            reconnect
          </button>
        </p>
      ) : null}
      {s.state === "ready" || s.state === "closed" ? (
        <>
          <nav class="views">
            {VIEWS.map((v) => (
              <button
                type="button"
                key={v}
                id={`view-${v}`}
                class={v === view ? "selected" : ""}
                onClick={() => setView(v)}
              >
                {v}
              </button>
            ))}
          </nav>
          {view === "info" ? <InfoView summary={s} /> : null}
          {view === "tools" && s.state === "ready" ? <ToolsView connection={s.id} /> : null}
          {view === "resources" && s.state === "ready" ? <ResourcesView connection={s.id} /> : null}
          {view === "prompts" && s.state === "ready" ? <PromptsView connection={s.id} /> : null}
          {view === "log" ? <LogView connection={s.id} /> : null}
          {view === "wire" ? <WireView entries={live.wire} label={s.label} /> : null}
        </>
      ) : null}
      {s.state === "failed" ? <WireView entries={live.wire} label={s.label} /> : null}
    </div>
  );
}
