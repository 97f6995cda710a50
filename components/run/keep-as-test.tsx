"use client";

import { useEffect, useId, useMemo, useState, useTransition } from "react";
import { CaseEditor, type EditCaseAction } from "./case-editor";
import styles from "./run.module.css";

export type KeepAsTestAction = (runId: string, name?: string) => Promise<{ ok: true; file: string; fileName: string; text: string } | { ok: false; error: string; field?: string }>;

/**
 * "Keep as test" on a completed run: names the case, writes it to the
 * repository's cases folder on the server, then offers the file as a
 * download (see docs/tests.md); with the case editor under it once kept.
 */
export function KeepAsTest({ runId, defaultName, keep, editCase }: { runId: string; defaultName: string; keep: KeepAsTestAction; editCase?: EditCaseAction }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(defaultName);
  const [pending, startTransition] = useTransition();
  const [result, setResult] = useState<Awaited<ReturnType<KeepAsTestAction>> | null>(null);
  const nameId = useId();
  const errorId = useId();
  const href = useMemo(() => (result?.ok ? URL.createObjectURL(new Blob([result.text], { type: "application/json" })) : null), [result]);
  useEffect(() => () => (href ? URL.revokeObjectURL(href) : undefined), [href]);

  if (!open) {
    return (
      <button type="button" className={styles.secondaryLink} onClick={() => setOpen(true)}>
        Keep as test
      </button>
    );
  }
  return (
    <>
      <form
        className={styles.keepAsTest}
        aria-label="Keep this run as a test case"
        onSubmit={(event) => {
          event.preventDefault();
          startTransition(async () => setResult(await keep(runId, name)));
        }}
      >
        <label htmlFor={nameId}>Case name</label>
        <input id={nameId} value={name} onChange={(event) => setName(event.target.value)} maxLength={200} aria-invalid={result?.ok === false} aria-describedby={result?.ok === false ? errorId : undefined} />
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Keeping…" : "Keep"}
        </button>
        <button type="button" className={styles.secondaryLink} onClick={() => (setOpen(false), setResult(null))}>
          Close
        </button>
        {result?.ok ? (
          <p aria-live="polite">
            Kept as <code>{result.file}</code>.{" "}
            <a href={href ?? undefined} download={result.fileName}>
              Download the case file
            </a>
          </p>
        ) : null}
        {result && !result.ok ? (
          <p id={errorId} role="alert" className={styles.formError}>
            {result.error}
          </p>
        ) : null}
      </form>
      {result?.ok && editCase ? <CaseEditor key={result.fileName} fileName={result.fileName} text={result.text} edit={editCase} /> : null}
    </>
  );
}
