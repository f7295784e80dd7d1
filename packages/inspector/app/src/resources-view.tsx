// Resources, resource templates and prompts of a connection: list, read, get.
import { useEffect, useState } from "preact/hooks";
import { post } from "./api.js";
import { ContentsView, PromptView } from "./result-view.js";
import type { Shaped } from "./types.js";

interface Item {
  name?: string;
  uri?: string;
  uriTemplate?: string;
  description?: string;
  arguments?: Array<{ name: string; required?: boolean; description?: string }>;
}

function useList(connection: string, what: string) {
  const [items, setItems] = useState<Item[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    post<{ items: Item[] }>(`connections/${connection}/list`, { what })
      .then((r) => setItems(r.items))
      .catch((e: Error) => setError(e.message));
  }, [connection, what]);
  return { items, error };
}

/** The resources tab: resources (read on click) and templates (filled in, then read). */
export function ResourcesView(props: { connection: string }) {
  const resources = useList(props.connection, "resources");
  const templates = useList(props.connection, "templates");
  const [uri, setUri] = useState("");
  const [shown, setShown] = useState<Shaped | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const read = (target: string) => {
    setUri(target);
    setError(undefined);
    post<Shaped>(`connections/${props.connection}/read`, { uri: target })
      .then(setShown)
      .catch((e: Error) => setError(e.message));
  };
  return (
    <div class="split">
      <nav class="list" id="resource-list">
        {resources.error ? <p class="error">{resources.error}</p> : null}
        {(resources.items ?? []).map((r) => (
          <button type="button" key={r.uri} class="item" data-uri={r.uri} onClick={() => read(r.uri ?? "")}>
            <span class="item-name">{r.name ?? r.uri}</span>
            <span class="item-help">{r.uri}</span>
          </button>
        ))}
        <h3>templates</h3>
        {templates.error ? <p class="error">{templates.error}</p> : null}
        {(templates.items ?? []).map((t) => (
          <button type="button" key={t.uriTemplate} class="item" onClick={() => setUri(t.uriTemplate ?? "")}>
            <span class="item-name">{t.name}</span>
            <span class="item-help">{t.uriTemplate}</span>
          </button>
        ))}
      </nav>
      <div class="detail">
        <div class="toolbar">
          <input
            id="resource-uri"
            value={uri}
            placeholder="uri"
            onInput={(e) => setUri((e.currentTarget as HTMLInputElement).value)}
          />
          <button type="button" id="resource-read" onClick={() => read(uri)}>
            read
          </button>
        </div>
        {error ? <p class="error">{error}</p> : null}
        {shown ? <ContentsView shaped={shown} /> : null}
      </div>
    </div>
  );
}

/** The prompts tab: each prompt's arguments as text fields, then its messages. */
export function PromptsView(props: { connection: string }) {
  const prompts = useList(props.connection, "prompts");
  const [selected, setSelected] = useState<Item | undefined>(undefined);
  const [args, setArgs] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<Shaped | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const getPrompt = () => {
    setError(undefined);
    post<Shaped>(`connections/${props.connection}/prompt`, { name: selected?.name, arguments: args })
      .then(setShown)
      .catch((e: Error) => setError(e.message));
  };
  return (
    <div class="split">
      <nav class="list" id="prompt-list">
        {prompts.error ? <p class="error">{prompts.error}</p> : null}
        {(prompts.items ?? []).map((p) => (
          <button
            type="button"
            key={p.name}
            class="item"
            data-prompt={p.name}
            onClick={() => {
              setSelected(p);
              setArgs({});
              setShown(undefined);
            }}
          >
            <span class="item-name">{p.name}</span>
            <span class="item-help">{p.description ?? ""}</span>
          </button>
        ))}
      </nav>
      <div class="detail">
        {selected ? (
          <>
            <h2>{selected.name}</h2>
            {(selected.arguments ?? []).map((a) => (
              <div class="field" key={a.name}>
                <label for={`prompt-arg-${a.name}`}>
                  {a.name}
                  {a.required ? <span class="required"> *</span> : null}{" "}
                  <span class="field-help">{a.description ?? ""}</span>
                </label>
                <input
                  id={`prompt-arg-${a.name}`}
                  value={args[a.name] ?? ""}
                  onInput={(e) => setArgs({ ...args, [a.name]: (e.currentTarget as HTMLInputElement).value })}
                />
              </div>
            ))}
            <button type="button" id="prompt-get" onClick={getPrompt}>
              get prompt
            </button>
            {error ? <p class="error">{error}</p> : null}
            {shown ? <PromptView shaped={shown} /> : null}
          </>
        ) : (
          <p class="muted">Pick a prompt.</p>
        )}
      </div>
    </div>
  );
}
