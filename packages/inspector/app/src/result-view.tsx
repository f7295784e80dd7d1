// A tool result (or resource contents, or a prompt) rendered by kind. Text stays text: nothing a server
// sends is ever parsed as HTML. Images and audio are shown only from `data:` URLs the page builds itself.
import type { Shaped } from "./types.js";

interface Part {
  type?: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
  [key: string]: unknown;
}

const SAFE_MEDIA = /^(image\/(png|jpeg|gif|webp)|audio\/(wav|mpeg|ogg|webm|x-wav))$/;

function PartView(props: { part: Part }) {
  const p = props.part;
  if (p.type === "text") return <pre class="part part-text">{String(p.text ?? "")}</pre>;
  if (
    (p.type === "image" || p.type === "audio") &&
    typeof p.data === "string" &&
    SAFE_MEDIA.test(p.mimeType ?? "")
  ) {
    const src = `data:${p.mimeType};base64,${p.data}`;
    return p.type === "image" ? (
      <figure class="part part-image">
        <img src={src} alt={`a ${p.mimeType} part of the result`} />
        <figcaption>{p.mimeType}</figcaption>
      </figure>
    ) : (
      <figure class="part part-audio">
        <audio controls src={src}>
          <track kind="captions" />
        </audio>
        <figcaption>{p.mimeType}</figcaption>
      </figure>
    );
  }
  if (p.type === "resource_link")
    return (
      <div class="part part-link">
        <span class="tag">resource link</span> <code>{String(p.uri ?? "")}</code>{" "}
        {p.name ? <span>{String(p.name)}</span> : null}
        {p.mimeType ? <span class="muted"> {String(p.mimeType)}</span> : null}
      </div>
    );
  if (p.type === "resource" && p.resource)
    return (
      <div class="part part-resource">
        <div>
          <span class="tag">embedded resource</span> <code>{String(p.resource.uri ?? "")}</code>
          <span class="muted"> {String(p.resource.mimeType ?? "")}</span>
        </div>
        {typeof p.resource.text === "string" ? (
          <pre>{p.resource.text}</pre>
        ) : (
          <p class="muted">binary, {String(p.resource.blob ?? "").length} base64 characters</p>
        )}
      </div>
    );
  return (
    <div class="part part-other">
      <span class="tag">{String(p.type ?? "unknown")}</span>
      <pre>{JSON.stringify(p, null, 2)}</pre>
    </div>
  );
}

/** A tool result: its parts by kind, `structuredContent`, `isError`, and a note when it was cut. */
export function ToolResultView(props: { shaped: Shaped }) {
  const r = (props.shaped.value ?? {}) as {
    content?: Part[];
    structuredContent?: unknown;
    isError?: boolean;
  };
  return (
    <div class={`result ${r.isError ? "result-error" : ""}`} id="tool-result">
      <div class="result-head">
        {r.isError ? (
          <span class="tag tag-error">isError: the tool reported a failure</span>
        ) : (
          <span class="tag tag-ok">result</span>
        )}
        <span class="muted"> {props.shaped.bytes} bytes</span>
      </div>
      {props.shaped.truncated ? <p class="warning">{props.shaped.truncated}</p> : null}
      {(r.content ?? []).map((part, i) => (
        <PartView key={i} part={part} />
      ))}
      {r.structuredContent !== undefined ? (
        <div class="part part-structured">
          <span class="tag">structuredContent</span>
          <pre>{JSON.stringify(r.structuredContent, null, 2)}</pre>
        </div>
      ) : null}
    </div>
  );
}

/** Resource contents (`resources/read`). */
export function ContentsView(props: { shaped: Shaped }) {
  const r = (props.shaped.value ?? {}) as {
    contents?: Array<{ uri?: string; mimeType?: string; text?: string; blob?: string }>;
  };
  return (
    <div class="result" id="resource-contents">
      {props.shaped.truncated ? <p class="warning">{props.shaped.truncated}</p> : null}
      {(r.contents ?? []).map((c, i) => (
        <PartView key={i} part={{ type: "resource", resource: c }} />
      ))}
    </div>
  );
}

/** A prompt's messages (`prompts/get`). */
export function PromptView(props: { shaped: Shaped }) {
  const r = (props.shaped.value ?? {}) as {
    description?: string;
    messages?: Array<{ role?: string; content?: Part }>;
  };
  return (
    <div class="result" id="prompt-messages">
      {r.description ? <p>{r.description}</p> : null}
      {(r.messages ?? []).map((m, i) => (
        <div key={i} class="message">
          <span class="tag">{String(m.role ?? "?")}</span>
          {m.content ? <PartView part={m.content} /> : null}
        </div>
      ))}
    </div>
  );
}
