"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { Scorer, ScorerKind } from "@/lib/evals";

export type SaveScorers = (workflowId: string, scorers: unknown[]) => Promise<{ ok: true; scorers: Scorer[] } | { ok: false; error: string; field?: string }>;

/** The kinds a dataset evaluation offers, in the words the page uses. */
const kinds: ReadonlyArray<{ kind: ScorerKind; label: string }> = [
  { kind: "exact", label: "exact: equal to the expected output" },
  { kind: "contains", label: "contains a text" },
  { kind: "regex", label: "matches a regular expression" },
  { kind: "number", label: "number within a tolerance" },
  { kind: "schema", label: "valid against a JSON Schema" },
  { kind: "ignore", label: "ignore a field" },
  { kind: "judge", label: "judge: a model scores 0-1 against a rubric" },
];

/** The fields each kind takes, as the form edits them (text). */
const fieldsOf: Record<ScorerKind, ReadonlyArray<{ name: string; label: string; wide?: boolean }>> = {
  exact: [{ name: "path", label: "Path (empty: all outputs)" }],
  contains: [
    { name: "value", label: "Text" },
    { name: "path", label: "Path" },
  ],
  regex: [
    { name: "pattern", label: "Pattern" },
    { name: "flags", label: "Flags" },
    { name: "path", label: "Path" },
  ],
  number: [
    { name: "tolerance", label: "Tolerance" },
    { name: "path", label: "Path" },
  ],
  schema: [
    { name: "schema", label: "JSON Schema", wide: true },
    { name: "path", label: "Path" },
  ],
  ignore: [{ name: "path", label: "Path" }],
  judge: [
    { name: "rubric", label: "Rubric", wide: true },
    { name: "threshold", label: "Threshold (0-1)" },
    { name: "modelNode", label: "Agent node whose model judges" },
  ],
};

type Draft = { kind: ScorerKind } & Record<string, string>;

function draftOf(scorer: Scorer): Draft {
  const draft: Draft = { kind: scorer.kind };
  for (const [key, value] of Object.entries(scorer)) if (key !== "kind") draft[key] = typeof value === "object" ? JSON.stringify(value, null, 2) : String(value);
  return draft;
}

/** A draft as the scorer it stands for; numbers and the schema are read here, the rest checked by the server. */
function scorerOf(draft: Draft): Record<string, unknown> {
  const scorer: Record<string, unknown> = { kind: draft.kind };
  for (const field of fieldsOf[draft.kind]) {
    const text = draft[field.name]?.trim() ?? "";
    if (text === "") continue;
    if (field.name === "tolerance" || field.name === "threshold") scorer[field.name] = Number(text);
    else if (field.name === "schema") {
      try {
        scorer.schema = JSON.parse(text);
      } catch {
        scorer.schema = text;
      }
    } else scorer[field.name] = draft[field.name];
  }
  return scorer;
}

/**
 * The workflow's scorers, applied to every row of its evaluations: a list
 * of kinds with their fields, saved together. Without scorers, a row's
 * outputs must equal its expected outputs.
 */
export function ScorersEditor({ workflowId, scorers, canEdit, save }: { workflowId: string; scorers: readonly Scorer[]; canEdit: boolean; save: SaveScorers }) {
  const router = useRouter();
  const [drafts, setDrafts] = useState<Draft[]>(() => scorers.map(draftOf));
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const change = (index: number, patch: Partial<Draft>) => setDrafts((list) => list.map((draft, at) => (at === index ? ({ ...draft, ...patch } as Draft) : draft)));
  return (
    <form
      aria-label="Scorers"
      onSubmit={(event) => {
        event.preventDefault();
        startTransition(async () => {
          const result = await save(workflowId, drafts.map(scorerOf));
          if (result.ok) {
            setMessage({ kind: "ok", text: `Saved ${result.scorers.length} scorer${result.scorers.length === 1 ? "" : "s"}; the next evaluation applies them.` });
            router.refresh();
          } else setMessage({ kind: "error", text: result.error });
        });
      }}
    >
      {drafts.length === 0 ? <p className="muted">No scorers: a row passes when its outputs equal its expected outputs.</p> : null}
      <ol className="scorer-list">
        {drafts.map((draft, index) => (
          <li key={index}>
            <label className="form-field-inline">
              Scorer {index + 1}{" "}
              <select value={draft.kind} disabled={!canEdit} onChange={(event) => change(index, { kind: event.currentTarget.value as ScorerKind })}>
                {kinds.map((kind) => (
                  <option key={kind.kind} value={kind.kind}>
                    {kind.label}
                  </option>
                ))}
              </select>
            </label>
            {fieldsOf[draft.kind].map((field) => (
              <label key={field.name} className="form-field-inline">
                {field.label}{" "}
                {field.wide ? (
                  <textarea rows={2} value={draft[field.name] ?? ""} disabled={!canEdit} aria-label={`${field.label} of scorer ${index + 1}`} onChange={(event) => change(index, { [field.name]: event.currentTarget.value })} />
                ) : (
                  <input value={draft[field.name] ?? ""} disabled={!canEdit} aria-label={`${field.label} of scorer ${index + 1}`} onChange={(event) => change(index, { [field.name]: event.currentTarget.value })} />
                )}
              </label>
            ))}
            {canEdit ? (
              <button type="button" className="button-quiet" aria-label={`Remove scorer ${index + 1}`} onClick={() => setDrafts((list) => list.filter((_, at) => at !== index))}>
                Remove
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      {canEdit ? (
        <div className="button-row">
          <button type="button" className="button-quiet" onClick={() => setDrafts((list) => [...list, { kind: "contains" }])}>
            Add scorer
          </button>
          <button type="submit" className="button" disabled={pending}>
            {pending ? "Saving…" : "Save scorers"}
          </button>
        </div>
      ) : (
        <p className="small muted">An editor changes the scorers.</p>
      )}
      {message ? (
        <p className={message.kind === "error" ? "field-error" : "notice-ok"} role={message.kind === "error" ? "alert" : "status"}>
          {message.text}
        </p>
      ) : null}
    </form>
  );
}
