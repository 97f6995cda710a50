"use client";

import { type FormEvent, useId, useMemo, useState } from "react";
import { ModalDialog } from "@/components/ui/modal-dialog";
import { checkFieldValues, type EntryField, startFields, type Workflow } from "@/lib/graph";
import type { RunNotice } from "@/lib/canvas";

/** An error on the canvas, or what a run would lose, as the Run dialog lists it. */
export type RunBlocker = RunNotice;

/**
 * The run's input form, generated from the Start node's fields for its
 * trigger (its input fields by hand; a webhook's body, headers, query and
 * delivery id; a schedule's tick): text for strings, numbers, a checkbox
 * for booleans, JSON for objects and arrays, JSON or text for any value. Checked against the fields before the run starts; the server's
 * refusal is shown here too, by its field when it has one. While the
 * workflow has errors, Start run is disabled and the errors are listed, each
 * a link that closes the dialog and selects its node. What the run would
 * lose (a node whose outputs reach nothing) is listed as a warning: the run
 * may still start.
 */
export function RunDialog({
  open,
  workflow,
  errors,
  losses = [],
  onShowNode,
  onClose,
  onRun,
}: {
  open: boolean;
  workflow: Workflow;
  /** The workflow's errors on the canvas: the server refuses to run while there are any. */
  errors: readonly RunBlocker[];
  /** The nodes whose outputs reach nothing: what the run would lose. */
  losses?: readonly RunNotice[];
  /** Selects a node on the canvas (a link in the list of errors). */
  onShowNode: (nodeId: string) => void;
  onClose: () => void;
  onRun: (input: Record<string, unknown>) => Promise<{ ok: true } | { ok: false; error: string; field?: string }>;
}) {
  const start = workflow.nodes.find((node) => node.type === "start");
  const fields = useMemo(() => (start ? startFields(start.config) : []), [start]);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [flags, setFlags] = useState<Record<string, boolean>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const formId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const values: Record<string, unknown> = {};
    const local: Record<string, string> = {};
    for (const field of fields) {
      const read = readValue(field, texts[field.name] ?? "", flags[field.name] ?? false);
      if (read.error) local[field.name] = read.error;
      else if (read.value !== undefined) values[field.name] = read.value;
    }
    const checked = checkFieldValues(fields, values);
    if (!checked.ok) for (const problem of checked.problems) local[problem.field?.replace(/^input\./, "") ?? ""] ??= problem.message;
    setProblems(local);
    setGeneral(local[""] ?? null);
    if (Object.keys(local).length > 0) return;
    setPending(true);
    const result = await onRun(values);
    setPending(false);
    if (result.ok) return;
    const field = result.field?.replace(/^input\./, "");
    if (field && fields.some((candidate) => candidate.name === field)) setProblems({ [field]: result.error });
    else setGeneral(result.error);
  }

  return (
    <ModalDialog open={open} title="Run the workflow" onClose={onClose}>
      <form className="run-form" onSubmit={submit} noValidate aria-label="Run input">
        {!start ? <p className="small">This workflow has no Start node: it runs with no input.</p> : null}
        {start && fields.length === 0 ? <p className="small">The Start node declares no input fields: the run takes no input.</p> : null}
        {errors.length > 0 ? (
          <div className="notice notice-warning small run-blockers" id={`${formId}-blockers`}>
            <p>
              Fix {errors.length === 1 ? "this error" : `these ${errors.length} errors`} before running:
            </p>
            <NoticeList notices={errors} label="Errors to fix before running" onShowNode={onShowNode} />
          </div>
        ) : null}
        {losses.length > 0 ? (
          <div className="notice notice-warning small run-blockers" role="note" aria-label="What this run will lose">
            <p>This run will lose what {losses.length === 1 ? "this node produces" : `these ${losses.length} nodes produce`}:</p>
            <NoticeList notices={losses} label="Nodes whose outputs reach nothing" onShowNode={onShowNode} />
          </div>
        ) : null}
        {fields.map((field) => (
          <RunField
            key={field.name}
            id={`${formId}-${field.name}`}
            field={field}
            text={texts[field.name] ?? ""}
            flag={flags[field.name] ?? false}
            error={problems[field.name]}
            onText={(text) => setTexts((current) => ({ ...current, [field.name]: text }))}
            onFlag={(flag) => setFlags((current) => ({ ...current, [field.name]: flag }))}
          />
        ))}
        {general ? (
          <p className="field-error" role="alert">
            {general}
          </p>
        ) : null}
        <div className="button-row dialog-actions">
          <button type="button" className="button-quiet" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button" disabled={pending || errors.length > 0} aria-describedby={errors.length > 0 ? `${formId}-blockers` : undefined}>
            {pending ? "Starting…" : "Start run"}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

function RunField(props: { id: string; field: EntryField; text: string; flag: boolean; error?: string; onText: (text: string) => void; onFlag: (flag: boolean) => void }) {
  const { id, field } = props;
  const describedBy = [field.description ? `${id}-hint` : "", props.error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const control =
    field.type === "boolean" ? (
      <input id={id} type="checkbox" checked={props.flag} aria-describedby={describedBy} onChange={(event) => props.onFlag(event.target.checked)} />
    ) : field.type === "object" || field.type === "array" || field.type === "any" ? (
      <textarea id={id} className="code-input" rows={4} value={props.text} placeholder={{ object: "{ }", array: "[ ]" }[field.type as string] ?? "JSON, or text"} aria-describedby={describedBy} aria-invalid={props.error ? true : undefined} onChange={(event) => props.onText(event.target.value)} />
    ) : (
      <input id={id} type="text" inputMode={field.type === "number" ? "decimal" : undefined} value={props.text} aria-describedby={describedBy} aria-invalid={props.error ? true : undefined} onChange={(event) => props.onText(event.target.value)} />
    );
  return (
    <div className={`form-field${field.type === "boolean" ? " form-field-inline" : ""}`}>
      {field.type === "boolean" ? control : null}
      <label htmlFor={id}>
        {field.name}
        {field.required ? <span className="required"> required</span> : null} <span className="muted small">({field.type})</span>
      </label>
      {field.type === "boolean" ? null : control}
      {field.description ? (
        <p id={`${id}-hint`} className="field-hint">
          {field.description}
        </p>
      ) : null}
      {props.error ? (
        <p id={`${id}-error`} className="field-error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/** A form value as its field's type; an empty box means "not given". */
function readValue(field: EntryField, text: string, flag: boolean): { value?: unknown; error?: string } {
  if (field.type === "boolean") return { value: flag };
  if (text.trim() === "") return {};
  if (field.type === "string") return { value: text };
  if (field.type === "any") return { value: parsedOrText(text) };
  if (field.type === "number") {
    const number = Number(text);
    return Number.isFinite(number) ? { value: number } : { error: `“${text}” is not a number.` };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` };
  }
}

/** A value of any type: JSON when it parses, else the text as typed. */
function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Problems as a list, each on a node a link that closes the dialog and selects it. */
function NoticeList({ notices, label, onShowNode }: { notices: readonly RunNotice[]; label: string; onShowNode: (nodeId: string) => void }) {
  return (
    <ul aria-label={label}>
      {notices.map((notice, index) => (
        <li key={index}>
          {notice.nodeId ? (
            <a
              href={`#node-${notice.nodeId}`}
              onClick={(event) => {
                event.preventDefault();
                onShowNode(notice.nodeId as string);
              }}
            >
              {notice.nodeId}
            </a>
          ) : null}
          {notice.nodeId ? ": " : ""}
          {notice.message}
        </li>
      ))}
    </ul>
  );
}
