"use client";

import type { ReactNode } from "react";
import type { JsonSchema } from "@/lib/manifest/browser";
import { type ConfigPath, pathKey } from "./config-value";

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

/** A field's label, control, hint and messages, tied together for screen readers. */
export function FieldFrame({
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
  children: (describedBy: string | undefined, invalid: boolean) => ReactNode;
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

/** The field's label: its schema title, else its name. */
export function labelOf(props: FieldProps): string {
  return props.schema.title ?? props.name;
}
