"use client";

import { useEffect, useId, useRef } from "react";
import { isObjectList, newItem, orderedProperties, pathKey, schemaType } from "./config-value";
import { type FieldProps, labelOf } from "./field-frame";
import { JsonField } from "./json-field";
import { CheckboxField, NumberField, SelectField, TextField } from "./scalar-fields";

export type { FieldProps } from "./field-frame";

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

/** An array of objects (a Start's input fields): one group of fields per item, with add and remove. */
function ObjectListField(props: FieldProps) {
  const items = Array.isArray(props.value) ? (props.value as unknown[]) : [];
  const itemSchema = props.schema.items!;
  const label = labelOf(props);
  const singular = singularOf(label);
  const messages = props.messagesFor(props.path);
  const headingId = `${props.idPrefix}-${useId()}`;
  const list = useRef<HTMLOListElement>(null);
  // After "Add …", the new item's first field gets the focus, so typing names it.
  const added = useRef(false);
  useEffect(() => {
    if (!added.current) return;
    added.current = false;
    list.current?.querySelector<HTMLElement>(".object-list-item:last-child input, .object-list-item:last-child select, .object-list-item:last-child textarea")?.focus();
  }, [items.length]);
  return (
    <fieldset className="form-field object-list" data-field={pathKey(props.path)} aria-labelledby={headingId}>
      <legend id={headingId}>
        {label}
        {props.required ? <span className="required"> required</span> : null}
      </legend>
      {props.schema.description ? <p className="field-hint">{props.schema.description}</p> : null}
      {messages.length > 0 ? <p className="field-error">{messages.join("; ")}</p> : null}
      {items.length === 0 ? <p className="muted small">None yet.</p> : null}
      <ol className="object-list-items" ref={list}>
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
      <button
        type="button"
        className="button-quiet"
        onClick={() => {
          added.current = true;
          props.onChange(props.path, [...items, newItem(props.schema)]);
        }}
      >
        Add {singular.toLowerCase()}
      </button>
    </fieldset>
  );
}

/** "Input fields" → "Input field". */
function singularOf(label: string): string {
  return label.endsWith("s") ? label.slice(0, -1) : `${label} item`;
}
