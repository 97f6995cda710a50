"use client";

import Link from "next/link";
import { selectRunCalls, selectRunError, selectRunFinished, selectRunId, selectRunResult, selectRunStage, selectRunState, selectRunWaitingForApproval } from "@/lib/store";
import { useCanvas, useRunStatusStore } from "./canvas-context";
import { ValuePreview } from "./value-preview";

/**
 * The current run on the canvas: its status, its result once it ended, its
 * tool calls as they are written (each a link to that call in the trace),
 * a link to the whole trace, cancel while it runs, dismiss when it is over.
 */
export function RunPanel({ onCancel }: { onCancel: (runId: string) => void }) {
  const { stores } = useCanvas();
  const runId = useRunStatusStore(selectRunId);
  const status = useRunStatusStore(selectRunState);
  const finished = useRunStatusStore(selectRunFinished);
  const error = useRunStatusStore(selectRunError);
  const calls = useRunStatusStore(selectRunCalls);
  const result = useRunStatusStore(selectRunResult);
  const waiting = useRunStatusStore(selectRunWaitingForApproval);
  const stage = useRunStatusStore(selectRunStage);
  if (!runId) return null;
  const trace = `/runs/${encodeURIComponent(runId)}`;
  return (
    <section className={`run-panel run-panel-${waiting ? "waiting-for-approval" : (status ?? "queued")}`} aria-label="Current run">
      <div className="run-panel-line">
        <span role="status" aria-live="polite" className="run-panel-status">
          {status === "unknown" ? (
            <span className="run-panel-error">The run could not be followed: {error}</span>
          ) : waiting ? (
            <>
              Run is <strong>waiting for approval</strong>: {waiting.nodeId} wants to call <code>{waiting.server}/{waiting.tool}</code>. <Link href="/approvals">Approve or deny it on Approvals</Link>
            </>
          ) : stage && !finished ? (
            <>
              <strong>{stage}</strong>
            </>
          ) : (
            <>
              Run {finished ? "ended" : "is"} <strong>{(status ?? "starting").replace(/_/g, " ")}</strong>
              {error ? <span className="run-panel-error">: {error}</span> : null}
            </>
          )}
        </span>
        {result ? <ValuePreview name="result" value={result.value} owner="the run" /> : null}
        <Link href={trace}>Open the run&rsquo;s trace</Link>
        {finished ? (
          <button type="button" className="button-quiet" onClick={() => stores.runStatus.getState().cleared()}>
            Clear run status
          </button>
        ) : (
          <button type="button" className="button-quiet button-danger" onClick={() => onCancel(runId)}>
            Cancel run
          </button>
        )}
      </div>
      <details className="run-panel-calls" open>
        <summary>
          {calls.length === 0 ? (finished ? "No tool calls" : "Tool calls: none yet") : `Tool calls (${calls.length})`}
        </summary>
        {calls.length > 0 ? (
          <ol className="run-call-list" aria-label="Tool calls of the run">
            {calls.map((call) => (
              <li key={call.id} className={call.isError ? "is-error" : undefined}>
                <Link href={`${trace}?call=${encodeURIComponent(call.id)}`} aria-label={`${call.tool} on ${call.server}, called by ${call.caller}${call.isError ? ", failed" : ""}: open in the trace`}>
                  <code>{call.tool}</code>
                </Link>{" "}
                <span className="muted small">
                  {call.server} · by {call.caller} · {call.durationMs} ms
                </span>
                {call.isError ? <span className="badge badge-error">error</span> : null}
              </li>
            ))}
          </ol>
        ) : null}
      </details>
    </section>
  );
}
