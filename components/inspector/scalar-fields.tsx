"use client";

import { useEffect, useId, useState } from "react";
import { type FieldProps, FieldFrame, labelOf } from "./field-frame";

export function TextField(props: FieldProps) {
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

export function NumberField(props: FieldProps & { integer: boolean }) {
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

export function CheckboxField(props: FieldProps) {
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

export function SelectField(props: FieldProps) {
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
              {props.schema.enumNames?.[optionIndex] ?? (typeof option === "string" ? option : JSON.stringify(option))}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

