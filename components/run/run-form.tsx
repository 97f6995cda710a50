"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition, type FormEvent } from "react";
import type { InputField } from "@/lib/graph";
import styles from "./run.module.css";

export type StartRunAction = (workflowId: string, input: Record<string, unknown>) => Promise<{ ok: true; runId: string } | { ok: false; error: string; field?: string }>;

export interface RunFormProps {
  workflowId: string;
  /** The Start node's input fields: one form control each. */
  fields: readonly InputField[];
  startRun: StartRunAction;
}

/**
 * Runs a workflow with an input typed into one control per Start field, then
 * opens the run's live page. Refusals are shown at the field they concern.
 */
export function RunForm({ workflowId, fields, startRun }: RunFormProps) {
  const router = useRouter();
  const id = useId();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const read = readInput(fields, data);
    if (!read.ok) {
      setError({ message: read.error, field: read.field });
      return;
    }
    startTransition(async () => {
      const result = await startRun(workflowId, read.input);
      if (result.ok) router.push(`/runs/${encodeURIComponent(result.runId)}`);
      else setError({ message: result.error, field: result.field });
    });
  };

  const errorId = `${id}-error`;
  const fieldError = (name: string) => error?.field === `input.${name}`;
  return (
    <form className={`card ${styles.runForm}`} onSubmit={submit} aria-labelledby={`${id}-heading`} noValidate>
      <h2 id={`${id}-heading`}>Run this workflow</h2>
      {fields.length === 0 ? <p className="muted small">This workflow takes no input.</p> : null}
      {fields.map((field) => {
        const controlId = `${id}-${field.name}`;
        const hintId = `${controlId}-hint`;
        const describedBy = [field.description ? hintId : null, fieldError(field.name) ? errorId : null].filter(Boolean).join(" ") || undefined;
        const common = { id: controlId, name: field.name, "aria-describedby": describedBy, "aria-invalid": fieldError(field.name) || undefined, required: field.required };
        return (
          <div key={field.name} className={field.type === "boolean" ? `${styles.formField} ${styles.formCheck}` : styles.formField}>
            {field.type === "boolean" ? <input type="checkbox" {...common} /> : null}
            <label htmlFor={controlId}>
              {field.name}
              {field.required ? <span className="required"> (required)</span> : null}
            </label>
            {field.type === "string" ? <input type="text" autoComplete="off" {...common} /> : null}
            {field.type === "number" ? <input type="number" step="any" {...common} /> : null}
            {field.type === "object" || field.type === "array" ? <textarea rows={4} spellCheck={false} placeholder={field.type === "object" ? "{ }" : "[ ]"} {...common} /> : null}
            {field.description ? (
              <p id={hintId} className="muted small">
                {field.description}
              </p>
            ) : null}
          </div>
        );
      })}
      {error ? (
        <p id={errorId} className={styles.formError} role="alert">
          {error.message}
        </p>
      ) : null}
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Starting…" : "Run workflow"}
        </button>
      </div>
    </form>
  );
}

type ReadInput = { ok: true; input: Record<string, unknown> } | { ok: false; error: string; field: string };

/** The form's values typed by their fields; empty optional fields are left out. */
function readInput(fields: readonly InputField[], data: FormData): ReadInput {
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.type === "boolean") {
      input[field.name] = data.get(field.name) === "on";
      continue;
    }
    const text = String(data.get(field.name) ?? "").trim();
    if (text === "") continue; // a missing required field is reported by startRun, with the same words as everywhere
    if (field.type === "string") input[field.name] = text;
    else if (field.type === "number") {
      const number = Number(text);
      if (!Number.isFinite(number)) return { ok: false, error: `"${field.name}" must be a number.`, field: `input.${field.name}` };
      input[field.name] = number;
    } else {
      try {
        input[field.name] = JSON.parse(text);
      } catch {
        return { ok: false, error: `"${field.name}" must be JSON (${field.type === "object" ? "an object, { … }" : "an array, [ … ]"}).`, field: `input.${field.name}` };
      }
    }
  }
  return { ok: true, input };
}
