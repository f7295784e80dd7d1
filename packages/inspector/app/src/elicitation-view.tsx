// A server's elicitation (form mode) answered by the person: its requested schema as a form.
import { useState } from "preact/hooks";
import { post } from "./api.js";
import { SchemaForm } from "./schema-form.js";
import { initialValue, type Problem, pruneEmpty, validate } from "./schema-values.js";
import type { Live } from "./store.js";
import type { Schema } from "./types.js";

/** One pending elicitation: accept (with the form's values), decline or cancel. */
export function ElicitationView(props: { connection: string; request: Live["elicitations"][number] }) {
  const schema = (props.request.params.requestedSchema ?? { type: "object", properties: {} }) as Schema;
  const [value, setValue] = useState<Record<string, unknown>>(
    () => initialValue(schema) as Record<string, unknown>,
  );
  const [problems, setProblems] = useState<Problem[]>([]);
  const answer = (action: "accept" | "decline" | "cancel") => {
    const content = pruneEmpty(value);
    if (action === "accept") {
      const found = validate(schema, content);
      setProblems(found);
      if (found.length > 0) return;
    }
    void post(`connections/${props.connection}/answer`, {
      elicitId: props.request.elicitId,
      action,
      content,
    });
  };
  return (
    <section class="elicitation" id="elicitation" role="dialog" aria-label="the server asks">
      <h2>The server asks</h2>
      <p class="description">{props.request.params.message ?? ""}</p>
      {props.request.params.mode === "url" ? (
        <p class="placeholder">
          URL-mode elicitation ({String(props.request.params.url ?? "")}) is not supported by the inspector
          yet: decline or cancel.
        </p>
      ) : (
        <SchemaForm schema={schema} value={value} onChange={setValue} prefix="elicit" />
      )}
      {problems.length > 0 ? (
        <ul class="problems">
          {problems.map((p) => (
            <li key={p.path}>
              {p.path} {p.message}
            </li>
          ))}
        </ul>
      ) : null}
      <div class="toolbar">
        <button type="button" id="elicit-accept" onClick={() => answer("accept")}>
          accept
        </button>
        <button type="button" id="elicit-decline" onClick={() => answer("decline")}>
          decline
        </button>
        <button type="button" id="elicit-cancel" onClick={() => answer("cancel")}>
          cancel
        </button>
      </div>
    </section>
  );
}
