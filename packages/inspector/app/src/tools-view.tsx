// The tools of a connection: the list, a schema-aware form (or raw JSON), the call with progress and a
// cancel button, and the result by kind.
import { useEffect, useState } from "preact/hooks";
import { post } from "./api.js";
import { ToolResultView } from "./result-view.js";
import { SchemaForm } from "./schema-form.js";
import { initialValue, type Problem, pruneEmpty, validate } from "./schema-values.js";
import { liveOf, useStore } from "./store.js";
import type { Schema, Shaped, Tool } from "./types.js";

let callSeq = 0;

function appUri(tool: Tool): string | undefined {
  const meta = tool._meta ?? {};
  const ui = meta.ui as { resourceUri?: unknown } | undefined;
  const uri = ui?.resourceUri ?? meta["ui/resourceUri"];
  return typeof uri === "string" ? uri : undefined;
}

function ToolPanel(props: { connection: string; tool: Tool }) {
  useStore();
  const schema: Schema = props.tool.inputSchema ?? { type: "object" };
  const [value, setValue] = useState<Record<string, unknown>>(
    () => initialValue(schema) as Record<string, unknown>,
  );
  const [raw, setRaw] = useState<string | undefined>(undefined);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [running, setRunning] = useState<string | undefined>(undefined);
  const [result, setResult] = useState<Shaped | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const progress = running ? liveOf(props.connection).progress[running] : undefined;
  const ui = appUri(props.tool);

  const call = async () => {
    let args: unknown;
    if (raw !== undefined) {
      try {
        args = JSON.parse(raw || "{}");
      } catch (e) {
        setProblems([{ path: "raw JSON", message: (e as Error).message }]);
        return;
      }
    } else args = pruneEmpty(value);
    const found = validate(schema, args);
    setProblems(found);
    if (found.length > 0) return;
    const callId = `call${++callSeq}`;
    setRunning(callId);
    setResult(undefined);
    setError(undefined);
    try {
      setResult(
        await post<Shaped>(`connections/${props.connection}/call`, {
          callId,
          name: props.tool.name,
          arguments: args,
        }),
      );
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setRunning(undefined);
    }
  };

  return (
    <div class="tool-panel" data-tool={props.tool.name}>
      <h2>{props.tool.title ?? props.tool.name}</h2>
      {props.tool.description ? (
        <p class="description" id="tool-description">
          {props.tool.description}
        </p>
      ) : null}
      {ui ? (
        <p class="placeholder" id="app-placeholder">
          This tool has an MCP App view ({ui}). Rendering it here is not done yet: the inspector does not wire
          @mcpkit/apps/host (renderApp, createViewBridge) into the page; the result is shown as data below.
        </p>
      ) : null}
      <div class="toolbar">
        <label>
          <input
            type="checkbox"
            id="raw-switch"
            checked={raw !== undefined}
            onChange={(e) =>
              setRaw(
                (e.currentTarget as HTMLInputElement).checked
                  ? JSON.stringify(pruneEmpty(value), null, 2)
                  : undefined,
              )
            }
          />{" "}
          raw JSON
        </label>
      </div>
      {raw !== undefined ? (
        <textarea
          id="raw-json"
          rows={8}
          value={raw}
          onInput={(e) => setRaw((e.currentTarget as HTMLTextAreaElement).value)}
        />
      ) : (
        <SchemaForm schema={schema} value={value} onChange={setValue} />
      )}
      {problems.length > 0 ? (
        <ul class="problems" id="problems">
          {problems.map((p) => (
            <li key={`${p.path}${p.message}`}>
              {p.path} {p.message}
            </li>
          ))}
        </ul>
      ) : null}
      <div class="toolbar">
        <button type="button" id="call" disabled={running !== undefined} onClick={call}>
          call {props.tool.name}
        </button>
        {running ? (
          <button
            type="button"
            id="cancel"
            onClick={() => post(`connections/${props.connection}/cancel`, { callId: running })}
          >
            cancel
          </button>
        ) : null}
        {running ? (
          <span class="progress" id="progress">
            {progress ? (
              <>
                <progress max={progress.total ?? 100} value={progress.progress} /> {progress.progress}
                {progress.total !== undefined ? ` / ${progress.total}` : ""} {progress.message ?? ""}
              </>
            ) : (
              "running…"
            )}
          </span>
        ) : null}
      </div>
      {error ? (
        <p class="error" id="call-error">
          {error}
        </p>
      ) : null}
      {result ? <ToolResultView shaped={result} /> : null}
    </div>
  );
}

/** The tools tab of one connection. */
export function ToolsView(props: { connection: string }) {
  const [tools, setTools] = useState<Tool[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const load = () =>
    post<{ items: Tool[] }>(`connections/${props.connection}/list`, { what: "tools" })
      .then((r) => setTools(r.items))
      .catch((e: Error) => setError(e.message));
  useEffect(() => {
    void load();
  }, [props.connection]);
  const tool = tools?.find((t) => t.name === selected);
  return (
    <div class="split">
      <nav class="list" id="tool-list">
        <button type="button" class="small" onClick={load}>
          refresh
        </button>
        {error ? <p class="error">{error}</p> : null}
        {tools === undefined && !error ? <p class="muted">loading…</p> : null}
        {(tools ?? []).map((t) => (
          <button
            type="button"
            key={t.name}
            class={`item ${t.name === selected ? "selected" : ""}`}
            data-tool={t.name}
            onClick={() => setSelected(t.name)}
          >
            <span class="item-name">{t.name}</span>
            <span class="item-help">{t.description ?? ""}</span>
          </button>
        ))}
      </nav>
      <div class="detail">
        {tool ? (
          <ToolPanel key={tool.name} connection={props.connection} tool={tool} />
        ) : (
          <p class="muted">Pick a tool.</p>
        )}
      </div>
    </div>
  );
}
