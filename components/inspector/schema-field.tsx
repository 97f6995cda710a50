"use client";

import { useEffect, useId, useState } from "react";
import type { JsonSchema } from "@/lib/manifest/schemas/json-schema";
import { type ConfigPath, isObjectList, newItem, orderedProperties, pathKey, schemaType } from "./config-value";

export interface FieldProps {
  name: string;
  schema: JsonSchema;
  path: ConfigPath;
  value: unknown;
  required: boolean;
  /** Messages about this field (and, for JSON fields, anything inside it). */
  messagesFor: (path: ConfigPath, inside?: boolean) => string[];
  onChange: (path: ConfigPath, value: unknown) => void;
  /** A distinguishing prefix for ids, so two forms on a page never share one. */
  idPrefix: string;
}

/** One config field, drawn by its schema: text, textarea, number, checkbox, select, rows of objects, or JSON. */
export function SchemaField(props: FieldProps) {
  const { schema } = props;
  const type = schemaType(schema);
  if (schema.enum) return <SelectField {...props} />;
  if (type === "boolean") return <CheckboxField {...props} />;
  if (type === "integer" || type === "number") return <NumberField {...props} integer={type === "integer"} />;
  if (type === "string" || (type === undefined && !schema.properties && !schema.items)) return <TextField {...props} />;
  if (isObjectList(schema)) return <ObjectListField {...props} />;
  return <JsonField {...props} />;
}

function FieldFrame({
  id,
  label,
  props,
  children,
  inline = false,
  inside = false,
}: {
  id: string;
  label: string;
  props: FieldProps;
  children: (describedBy: string | undefined, invalid: boolean) => React.ReactNode;
  inline?: boolean;
  inside?: boolean;
}) {
  const messages = props.messagesFor(props.path, inside);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [props.schema.description ? hintId : "", messages.length > 0 ? errorId : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`form-field${inline ? " form-field-inline" : ""}${messages.length > 0 ? " is-invalid" : ""}`} data-field={pathKey(props.path)}>
      {inline ? children(describedBy, messages.length > 0) : null}
      <label htmlFor={id}>
        {label}
        {props.required ? <span className="required"> required</span> : null}
      </label>
      {inline ? null : children(describedBy, messages.length > 0)}
      {props.schema.description ? (
        <p id={hintId} className="field-hint">
          {props.schema.description}
        </p>
      ) : null}
      {messages.length > 0 ? (
        <p id={errorId} className="field-error">
          {messages.join("; ")}
        </p>
      ) : null}
    </div>
  );
}

function labelOf(props: FieldProps): string {
  return props.schema.title ?? props.name;
}

function TextField(props: FieldProps) {
  const id = `${props.idPrefix}-${useId()}`;
  const value = typeof props.value === "string" ? props.value : "";
  const widget = props.schema["ui:widget"];
  const placeholder = props.schema["ui:placeholder"] ?? (typeof props.schema.default === "string" ? props.schema.default : undefined);
  const change = (text: string) => props.onChange(props.path, text === "" && !props.required ? undefined : text);
  return (
    <FieldFrame id={id} label={labelOf(props)} props={props}>
      {(describedBy, invalid) =>
        widget === "textarea" || widget === "code" ? (
          <textarea id={id} value={value} placeholder={placeholder} rows={widget === "code" ? 6 : 3} aria-describedby={describedBy} aria-invalid={invalid || undefined} onChange={(event) => change(event.target.value)} />
        ) : (
          <input
            id={id}
            type={widget === "password" ? "password" : "text"}
            value={value}
            placeholder={placeholder}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            onChange={(event) => change(event.target.value)}
          />
        )
      }
    </FieldFrame>
  );
}

function NumberField(props: FieldProps & { integer: boolean }) {
  const id = `${props.idPrefix}-${useId()}`;
  const stored = typeof props.value === "number" ? String(props.value) : "";
  // The text as typed: "1." or "-" are on the way to a number and must not be thrown away.
  const [draft, setDraft] = useState(stored);
  useEffect(() => {
    setDraft((current) => (Number(current) === Number(stored) && current !== "" ? current : stored));
  }, [stored]);
  const local = draft.trim() !== "" && !Number.isFinite(Number(draft)) ? "enter a number" : props.integer && draft.trim() !== "" && !Number.isInteger(Number(draft)) ? "enter a whole number" : null;
  const placeholder = typeof props.schema.default === "number" ? String(props.schema.default) : undefined;
  return (
    <FieldFrame id={id} label={labelOf(props)} props={{ ...props, messagesFor: (path, inside) => [...(local ? [local] : []), ...props.messagesFor(path, inside)] }}>
      {(describedBy, invalid) => (
        <input
          id={id}
          type="text"
          inputMode={props.integer ? "numeric" : "decimal"}
          value={draft}
          placeholder={placeholder}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onChange={(event) => {
            const text = event.target.value;
            setDraft(text);
            if (text.trim() === "") return props.onChange(props.path, undefined);
            const number = Number(text);
            if (Number.isFinite(number)) props.onChange(props.path, number);
          }}
        />
      )}
    </FieldFrame>
  );
}

function CheckboxField(props: FieldProps) {
  const id = `${props.idPrefix}-${useId()}`;
  const checked = typeof props.value === "boolean" ? props.value : props.schema.default === true;
  return (
    <FieldFrame id={id} label={labelOf(props)} props={props} inline>
      {(describedBy, invalid) => (
        <input id={id} type="checkbox" checked={checked} aria-describedby={describedBy} aria-invalid={invalid || undefined} onChange={(event) => props.onChange(props.path, event.target.checked)} />
      )}
    </FieldFrame>
  );
}

function SelectField(props: FieldProps) {
  const id = `${props.idPrefix}-${useId()}`;
  const options = props.schema.enum ?? [];
  const current = props.value !== undefined ? props.value : props.schema.default;
  const index = options.findIndex((option) => option === current);
  return (
    <FieldFrame id={id} label={labelOf(props)} props={props}>
      {(describedBy, invalid) => (
        <select
          id={id}
          value={index === -1 ? "" : String(index)}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onChange={(event) => props.onChange(props.path, event.target.value === "" ? undefined : options[Number(event.target.value)])}
        >
          {index === -1 ? <option value="">{current === undefined ? "Choose…" : `${JSON.stringify(current)} (not allowed)`}</option> : null}
          {options.map((option, optionIndex) => (
            <option key={optionIndex} value={String(optionIndex)}>
              {typeof option === "string" ? option : JSON.stringify(option)}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/** Anything else (objects, arrays of values): JSON text, checked as it is typed. */
function JsonField(props: FieldProps) {
  const id = `${props.idPrefix}-${useId()}`;
  const stored = props.value === undefined ? "" : JSON.stringify(props.value, null, 2);
  const [draft, setDraft] = useState(stored);
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    setDraft((current) => {
      try {
        return current.trim() !== "" && JSON.stringify(JSON.parse(current)) === JSON.stringify(props.value) ? current : stored;
      } catch {
        return current;
      }
    });
  }, [stored, props.value]);
  const placeholder = props.schema.default !== undefined ? JSON.stringify(props.schema.default) : undefined;
  return (
    <FieldFrame id={id} label={labelOf(props)} props={{ ...props, messagesFor: (path) => [...(local ? [local] : []), ...props.messagesFor(path, true)] }}>
      {(describedBy, invalid) => (
        <textarea
          id={id}
          className="code-input"
          rows={4}
          value={draft}
          placeholder={placeholder}
          spellCheck={false}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onChange={(event) => {
            const text = event.target.value;
            setDraft(text);
            if (text.trim() === "") {
              setLocal(null);
              return props.onChange(props.path, undefined);
            }
            try {
              const parsed = JSON.parse(text);
              setLocal(null);
              props.onChange(props.path, parsed);
            } catch (error) {
              setLocal(`not valid JSON yet: ${(error as Error).message}`);
            }
          }}
        />
      )}
    </FieldFrame>
  );
}

/** An array of objects (a Start's input fields): one group of fields per item, with add and remove. */
function ObjectListField(props: FieldProps) {
  const items = Array.isArray(props.value) ? (props.value as unknown[]) : [];
  const itemSchema = props.schema.items!;
  const label = labelOf(props);
  const singular = singularOf(label);
  const messages = props.messagesFor(props.path);
  const headingId = `${props.idPrefix}-${useId()}`;
  return (
    <fieldset className="form-field object-list" data-field={pathKey(props.path)} aria-labelledby={headingId}>
      <legend id={headingId}>
        {label}
        {props.required ? <span className="required"> required</span> : null}
      </legend>
      {props.schema.description ? <p className="field-hint">{props.schema.description}</p> : null}
      {messages.length > 0 ? <p className="field-error">{messages.join("; ")}</p> : null}
      {items.length === 0 ? <p className="muted small">None yet.</p> : null}
      <ol className="object-list-items">
        {items.map((item, index) => (
          <li key={index} className="object-list-item">
            <fieldset>
              <legend>
                {singular} {index + 1}
              </legend>
              {orderedProperties(itemSchema).map(([name, schema]) => (
                <SchemaField
                  key={name}
                  name={name}
                  schema={schema}
                  path={[...props.path, index, name]}
                  value={(item as Record<string, unknown> | null)?.[name]}
                  required={(itemSchema.required ?? []).includes(name)}
                  messagesFor={props.messagesFor}
                  onChange={props.onChange}
                  idPrefix={props.idPrefix}
                />
              ))}
              <button
                type="button"
                className="button-quiet button-danger"
                aria-label={`Remove ${singular.toLowerCase()} ${index + 1}`}
                onClick={() => props.onChange(props.path, items.filter((_, other) => other !== index))}
              >
                Remove
              </button>
            </fieldset>
          </li>
        ))}
      </ol>
      <button type="button" className="button-quiet" onClick={() => props.onChange(props.path, [...items, newItem(props.schema)])}>
        Add {singular.toLowerCase()}
      </button>
    </fieldset>
  );
}

/** "Input fields" → "Input field". */
function singularOf(label: string): string {
  return label.endsWith("s") ? label.slice(0, -1) : `${label} item`;
}
