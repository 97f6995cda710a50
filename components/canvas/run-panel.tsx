"use client";

import Link from "next/link";
import { selectRunError, selectRunFinished, selectRunId, selectRunState } from "@/lib/store";
import { useCanvas, useRunStatusStore } from "./canvas-context";

/** The current run: its status, a link to its trace, cancel while it runs, dismiss when it is over. */
export function RunPanel({ onCancel }: { onCancel: (runId: string) => void }) {
  const { stores } = useCanvas();
  const runId = useRunStatusStore(selectRunId);
  const status = useRunStatusStore(selectRunState);
  const finished = useRunStatusStore(selectRunFinished);
  const error = useRunStatusStore(selectRunError);
  if (!runId) return null;
  return (
    <section className={`run-panel run-panel-${status ?? "queued"}`} aria-label="Current run">
      <span role="status" aria-live="polite" className="run-panel-status">
        {status === "unknown" ? (
          <span className="run-panel-error">The run could not be followed: {error}</span>
        ) : (
          <>
            Run {finished ? "ended" : "is"} <strong>{(status ?? "starting").replace(/_/g, " ")}</strong>
            {error ? <span className="run-panel-error">: {error}</span> : null}
          </>
        )}
      </span>
      <Link href={`/runs/${encodeURIComponent(runId)}`}>Open the run&rsquo;s trace</Link>
      {finished ? (
        <button type="button" className="button-quiet" onClick={() => stores.runStatus.getState().cleared()}>
          Clear run status
        </button>
      ) : (
        <button type="button" className="button-quiet button-danger" onClick={() => onCancel(runId)}>
          Cancel run
        </button>
      )}
    </section>
  );
}
