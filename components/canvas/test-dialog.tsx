"use client";

import Link from "next/link";
import { ModalDialog } from "@/components/ui/modal-dialog";
import type { TestOutcomes } from "@/components/workflows/action-types";

/**
 * What the Test button found: each of the workflow's cases passed or
 * failed against the document on the canvas, a failure with its first
 * divergent step and the node it marks; or why nothing ran.
 */
export function TestDialog({ open, state, onClose, onShowNode }: { open: boolean; state: TestOutcomes | "running" | null; onClose: () => void; onShowNode: (nodeId: string) => void }) {
  return (
    <ModalDialog open={open} title="Test cases" onClose={onClose} wide>
      <div aria-live="polite" aria-busy={state === "running"}>
        {state === "running" || state === null ? (
          <p role="status">Running this workflow&apos;s test cases against the canvas…</p>
        ) : !state.ok ? (
          <p className={state.noCases ? "muted" : "field-error"} role={state.noCases ? "status" : "alert"}>
            {state.error}
          </p>
        ) : (
          <>
            <p role="status" className={state.failed ? "field-error" : undefined}>
              {state.failed === 0 ? `All ${state.passed} case${state.passed === 1 ? "" : "s"} passed.` : `${state.failed} of ${state.passed + state.failed} case${state.passed + state.failed === 1 ? "" : "s"} failed.`}
            </p>
            <ul className="test-outcomes" aria-label="Test case results">
              {state.outcomes.map((outcome) => (
                <li key={outcome.fileName} className={`test-outcome ${outcome.pass ? "is-passed" : "is-failed"}`}>
                  <strong>{outcome.name}</strong> <span className={`badge ${outcome.pass ? "badge-ok" : "badge-error"}`}>{outcome.pass ? "passed" : "failed"}</span>{" "}
                  <span className="muted small">{outcome.fileName}</span>
                  {outcome.pass ? null : (
                    <>
                      <pre>{outcome.failures.slice(0, 4).join("\n")}</pre>
                      <span className="inline-form">
                        {outcome.node ? (
                          <button type="button" className="button-quiet" onClick={() => onShowNode(outcome.node!)}>
                            Show node {outcome.node}
                          </button>
                        ) : null}
                        {outcome.runId ? (
                          <Link className="button-quiet" href={`/runs/${encodeURIComponent(outcome.runId)}`}>
                            Open the run of {outcome.name}
                          </Link>
                        ) : null}
                      </span>
                    </>
                  )}
                </li>
              ))}
            </ul>
            {state.problems.length ? <p className="field-error">Case files that could not be read: {state.problems.join("; ")}</p> : null}
          </>
        )}
      </div>
    </ModalDialog>
  );
}
