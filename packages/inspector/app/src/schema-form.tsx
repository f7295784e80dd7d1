// A form for a JSON Schema: one input per field (enums as selects, nested objects as fieldsets, arrays as
// lists), with defaults filled in and required fields marked. Every server string is rendered as text.
import type { JSX } from "preact";
import { choicesOf, initialValue, typeOf } from "./schema-values.js";
import type { Schema } from "./types.js";

interface FieldProps {
  name: string;
  path: string;
  schema: Schema;
  value: unknown;
  required: boolean;
  onChange: (value: unknown) => void;
}

/** The form of an object schema (a tool's `inputSchema`, an elicitation's `requestedSchema`). */
export function SchemaForm(props: {
  schema: Schema;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  prefix?: string;
}) {
  return (
    <ObjectFields
      path={props.prefix ?? "arg"}
      schema={props.schema}
      value={props.value}
      onChange={(v) => props.onChange(v as Record<string, unknown>)}
    />
  );
}

function ObjectFields(props: {
  path: string;
  schema: Schema;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const record = (props.value && typeof props.value === "object" ? props.value : {}) as Record<
    string,
    unknown
  >;
  const entries = Object.entries(props.schema.properties ?? {});
  if (entries.length === 0) return <p class="muted">No arguments.</p>;
  return (
    <div class="fields">
      {entries.map(([key, child]) => (
        <Field
          key={key}
          name={key}
          path={`${props.path}-${key}`}
          schema={child}
          value={record[key]}
          required={props.schema.required?.includes(key) ?? false}
          onChange={(v) => props.onChange({ ...record, [key]: v })}
        />
      ))}
    </div>
  );
}

function Label(props: { name: string; schema: Schema; required: boolean; htmlFor: string }) {
  return (
    <label for={props.htmlFor}>
      <span class="field-name">{props.schema.title ?? props.name}</span>
      {props.required ? (
        <span class="required" title="required">
          {" "}
          *
        </span>
      ) : null}
      <span class="field-type">
        {" "}
        {typeOf(props.schema)}
        {props.schema.format ? ` (${props.schema.format})` : ""}
      </span>
      {props.schema.description ? <span class="field-help">{props.schema.description}</span> : null}
    </label>
  );
}

function Field(props: FieldProps) {
  const { schema, value, onChange, path } = props;
  const type = typeOf(schema);
  const id = `field-${path}`;
  if (type === "object") {
    return (
      <fieldset data-field={props.name}>
        <legend>
          {schema.title ?? props.name}
          {props.required ? <span class="required"> *</span> : null}
        </legend>
        {schema.description ? <p class="field-help">{schema.description}</p> : null}
        <ObjectFields path={path} schema={schema} value={value ?? {}} onChange={onChange} />
      </fieldset>
    );
  }
  const itemChoices = type === "array" && schema.items ? choicesOf(schema.items) : undefined;
  if (itemChoices) {
    // A multiple choice: a checkbox per option.
    const picked = Array.isArray(value) ? value : [];
    const key = (v: unknown) => JSON.stringify(v);
    return (
      <fieldset data-field={props.name}>
        <legend>
          {schema.title ?? props.name}
          {props.required ? <span class="required"> *</span> : null}
        </legend>
        {schema.description ? <p class="field-help">{schema.description}</p> : null}
        {itemChoices.map((choice) => (
          <label key={key(choice.value)} class="choice">
            <input
              type="checkbox"
              checked={picked.some((p) => key(p) === key(choice.value))}
              onChange={(e) =>
                onChange(
                  (e.currentTarget as HTMLInputElement).checked
                    ? [...picked, choice.value]
                    : picked.filter((p) => key(p) !== key(choice.value)),
                )
              }
            />{" "}
            {choice.label}
          </label>
        ))}
      </fieldset>
    );
  }
  if (type === "array") {
    const items = Array.isArray(value) ? value : [];
    const itemSchema = schema.items ?? {};
    return (
      <fieldset data-field={props.name}>
        <legend>
          {schema.title ?? props.name} (list){props.required ? <span class="required"> *</span> : null}
        </legend>
        {items.map((item, i) => (
          <div class="array-item" key={i}>
            <Field
              name={`${props.name}[${i}]`}
              path={`${path}-${i}`}
              schema={itemSchema}
              value={item}
              required
              onChange={(v) => onChange(items.map((x, j) => (j === i ? v : x)))}
            />
            <button type="button" class="small" onClick={() => onChange(items.filter((_, j) => j !== i))}>
              remove
            </button>
          </div>
        ))}
        <button
          type="button"
          class="small"
          id={`${id}-add`}
          onClick={() => onChange([...items, initialValue(itemSchema)])}
        >
          add item
        </button>
      </fieldset>
    );
  }
  let input: JSX.Element;
  const choices = choicesOf(schema);
  if (choices) {
    input = (
      <select
        id={id}
        value={value === undefined ? "" : JSON.stringify(value)}
        onChange={(e) => {
          const raw = (e.currentTarget as HTMLSelectElement).value;
          onChange(raw === "" ? undefined : JSON.parse(raw));
        }}
      >
        {props.required ? null : <option value="">(none)</option>}
        {choices.map((option) => (
          <option key={JSON.stringify(option.value)} value={JSON.stringify(option.value)}>
            {option.label}
          </option>
        ))}
      </select>
    );
  } else if (type === "boolean") {
    input = (
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)}
      />
    );
  } else if (type === "number" || type === "integer") {
    input = (
      <input
        id={id}
        type="number"
        step={type === "integer" ? 1 : "any"}
        value={value === undefined ? "" : String(value)}
        onInput={(e) => {
          const raw = (e.currentTarget as HTMLInputElement).value;
          onChange(raw === "" ? undefined : Number(raw));
        }}
      />
    );
  } else if (type === "any") {
    input = (
      <input
        id={id}
        type="text"
        placeholder="JSON"
        value={value === undefined ? "" : JSON.stringify(value)}
        onInput={(e) => {
          const raw = (e.currentTarget as HTMLInputElement).value;
          try {
            onChange(raw === "" ? undefined : JSON.parse(raw));
          } catch {
            onChange(raw);
          }
        }}
      />
    );
  } else {
    const inputType =
      schema.format === "email"
        ? "email"
        : schema.format === "uri"
          ? "url"
          : schema.format === "date"
            ? "date"
            : "text";
    input = (
      <input
        id={id}
        type={inputType}
        value={typeof value === "string" ? value : value === undefined ? "" : String(value)}
        onInput={(e) => onChange((e.currentTarget as HTMLInputElement).value)}
      />
    );
  }
  return (
    <div class="field" data-field={props.name}>
      <Label name={props.name} schema={schema} required={props.required} htmlFor={id} />
      {input}
    </div>
  );
}
