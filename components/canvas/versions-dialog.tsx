"use client";

import { type FormEvent, useEffect, useId, useState } from "react";
import { ModalDialog } from "@/components/ui/modal-dialog";
import type { VersionItem } from "@/components/workflows/action-types";
import type { VersionTests } from "@/lib/runs";

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/**
 * Save the document as a numbered version with a note, list the saved
 * versions (each with how the workflow's test cases came out against it),
 * restore one. Restoring is one undo step on the canvas, and the
 * server keeps the state before it as a version of its own.
 */
export function VersionsDialog({
  open,
  versions,
  onClose,
  onSave,
  onRestore,
  onRetest,
}: {
  open: boolean;
  versions: readonly VersionItem[];
  onClose: () => void;
  onSave: (note: string) => Promise<string | null>;
  onRestore: (number: number) => Promise<string | null>;
  /** Runs the test cases again against a version whose test was interrupted. */
  onRetest?: (number: number) => Promise<string | null>;
}) {
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const noteId = useId();

  useEffect(() => {
    if (open) setError(null);
  }, [open]);

  async function save(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    const failure = await onSave(note);
    setPending(false);
    setError(failure);
    if (!failure) setNote("");
  }

  async function restore(number: number) {
    setPending(true);
    const failure = await onRestore(number);
    setPending(false);
    setError(failure);
  }

  async function retest(number: number) {
    if (!onRetest) return;
    setPending(true);
    const failure = await onRetest(number);
    setPending(false);
    setError(failure);
  }

  return (
    <ModalDialog open={open} title="Versions" onClose={onClose} wide>
      <form className="version-form" onSubmit={save}>
        <label htmlFor={noteId}>Version note</label>
        <div className="inline-form">
          <input id={noteId} value={note} maxLength={500} placeholder="What changed, e.g. added the weather service" onChange={(event) => setNote(event.target.value)} />
          <button type="submit" className="button" disabled={pending}>
            Save version
          </button>
        </div>
      </form>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <h3 className="versions-heading">Saved versions</h3>
      {versions.length === 0 ? (
        <p className="muted small">No saved versions yet. Changes are saved automatically; save a version to keep a state you can return to.</p>
      ) : (
        <ol className="version-list" aria-label="Saved versions" reversed>
          {versions.map((version) => (
            <li key={version.number} className="version-item">
              <div>
                <strong>Version {version.number}</strong> <span className="muted small">{dateFormat.format(new Date(version.createdAt))} UTC</span>
                {version.note ? <p className="small">{version.note}</p> : null}
                {version.tests ? <VersionTestsView tests={version.tests} /> : null}
                {version.tests?.status === "interrupted" && onRetest ? (
                  <button type="button" className="button-quiet" disabled={pending} aria-label={`Run the tests of version ${version.number} again`} onClick={() => retest(version.number)}>
                    Run again
                  </button>
                ) : null}
              </div>
              <button type="button" className="button-quiet" disabled={pending} aria-label={`Restore version ${version.number}`} onClick={() => restore(version.number)}>
                Restore
              </button>
            </li>
          ))}
        </ol>
      )}
    </ModalDialog>
  );
}

/** A version's test result: running, passed or failed with counts, interrupted, or why the cases could not run. */
function VersionTestsView({ tests }: { tests: VersionTests }) {
  const total = (tests.passed ?? 0) + (tests.failed ?? 0);
  const text =
    tests.status === "running"
      ? "Tests: running…"
      : tests.status === "passed"
        ? `Tests: ${tests.passed} of ${total} passed`
        : tests.status === "failed"
          ? `Tests: ${tests.failed} of ${total} failed`
          : tests.status === "interrupted"
            ? "Tests: interrupted"
            : "Tests: could not run";
  return (
    <p className={`small version-tests version-tests-${tests.status}`} title={tests.summary ?? undefined}>
      <span className={`badge ${tests.status === "passed" ? "badge-ok" : tests.status === "running" ? "" : "badge-error"}`}>{text}</span>
      {tests.summary && tests.status !== "passed" ? <span className="muted"> {tests.summary}</span> : null}
    </p>
  );
}
