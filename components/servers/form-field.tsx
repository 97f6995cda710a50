import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import styles from "./servers.module.css";

type Common = {
  /** The entry field it edits; the element's id is `${idPrefix}-${name}`, which error summaries link to. */
  name: string;
  /** Posted under this name when it differs (`serverId`: an input named `id` or `name` would shadow the form's own properties). */
  formName?: string;
  idPrefix: string;
  label: string;
  hint?: ReactNode;
  /** The message of a refusal about this field, shown right under it. */
  error?: string | null;
  value: string;
  onValue(value: string): void;
};

type FieldProps =
  | (Common & { multiline?: false } & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "value" | "id">)
  | (Common & { multiline: true } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "value" | "id">);

/** A labelled input or textarea with its hint and its error, wired for screen readers. */
export function FormField(props: FieldProps) {
  const { name, formName, idPrefix, label, hint, error, value, onValue, ...rest } = props;
  const id = `${idPrefix}-${name}`;
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const shared = { id, name: formName ?? name, value, "aria-invalid": error ? true : undefined, "aria-describedby": described };
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {rest.multiline ? (
        <textarea {...textareaProps(rest)} {...shared} onChange={(event) => onValue(event.target.value)} />
      ) : (
        <input {...inputProps(rest)} {...shared} onChange={(event) => onValue(event.target.value)} />
      )}
      {error ? (
        <p id={`${id}-error`} className={styles.fieldError}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function textareaProps(rest: object): TextareaHTMLAttributes<HTMLTextAreaElement> {
  const { multiline: _multiline, ...props } = rest as { multiline?: boolean } & TextareaHTMLAttributes<HTMLTextAreaElement>;
  return props;
}

function inputProps(rest: object): InputHTMLAttributes<HTMLInputElement> {
  const { multiline: _multiline, ...props } = rest as { multiline?: boolean } & InputHTMLAttributes<HTMLInputElement>;
  return props;
}
