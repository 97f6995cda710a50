"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { DateTime } from "@/components/ui/date-time";
import type { RunRecord, RunTotals, RunStage } from "@/lib/trace/browser";
import { elapsed, formatDuration, formatTokens, plural } from "./format";
import { JsonBlock } from "./json-block";
import { StatusBadge } from "./status-badge";
import type { EditCaseAction } from "./case-editor";
import { KeepAsTest, type KeepAsTestAction } from "./keep-as-test";
import styles from "./run.module.css";

export type CancelRunAction = (runId: string) => Promise<{ ok: true } | { ok: false; error: string }>;

export interface RunOverviewProps {
  run: RunRecord;
  now: string;
  nodeRunCount: number;
  toolCallCount: number;
  cancelRun?: CancelRunAction;
  /** Model turns, tokens and cost (when known) of what the page holds. */
  totals?: Pick<RunTotals, "turns" | "inputTokens" | "outputTokens" | "costUsd">;
  /** Where a run that has not ended is (queued, taken by a worker, at a step): see runStage. */
  stage?: RunStage | null;
  /** Keeps a completed run as a test case; absent below editor. */
  keepAsTest?: KeepAsTestAction;
  /** The case editor under a kept case (editors). */
  editCase?: EditCaseAction;
}

/** The run at a glance: status, timing, input, and its output or error; Cancel while it runs. */
export function RunOverview({ run, now, nodeRunCount, toolCallCount, cancelRun, totals, stage, keepAsTest, editCase }: RunOverviewProps) {
  const duration = elapsed(run.startedAt, run.endedAt, now);
  const running = run.status === "running" || run.status === "queued";
  const cancellable = running || run.status === "needs-attention";
  return (
    <section className={`card ${styles.overview}`} aria-labelledby="run-heading">
      <div className={styles.overviewHeader}>
        <div>
          <h1 id="run-heading">Run of {run.workflowName}</h1>
          <p className="muted small">
            Run <code>{run.id}</code>
          </p>
        </div>
        <div className={styles.overviewActions}>
          {cancellable && cancelRun ? <CancelButton runId={run.id} cancelRun={cancelRun} /> : null}
          {run.status === "completed" && keepAsTest ? <KeepAsTest runId={run.id} defaultName={`${run.workflowName}: ${caseNameOf(run.input) ?? run.id}`} keep={keepAsTest} editCase={editCase} /> : null}
          <Link href={`/runs/compare?a=${encodeURIComponent(run.id)}`} className={styles.secondaryLink}>
            Compare with…
          </Link>
          {run.workflowId ? (
            <>
              <Link href={`/workflows/${encodeURIComponent(run.workflowId)}`} className={styles.secondaryLink}>
                Open the workflow on the canvas
              </Link>
              <Link href={`/runs?workflow=${encodeURIComponent(run.workflowId)}`} className={styles.secondaryLink}>
                All runs of this workflow
              </Link>
            </>
          ) : null}
        </div>
      </div>
      <p className={styles.runStatus} role="status" aria-live="polite">
        <StatusBadge status={run.status} waitingForApproval={Boolean(run.attention?.approval)} waitingForInput={Boolean(run.attention?.question)} />
        <span>{run.status === "needs-attention" && run.attention?.approval ? "Waiting for approval: a policy stopped a call. Decide below or on the Approvals page; no worker holds the run meanwhile." : stage ? `${stage.label}.` : statusSentence(run.status, duration, toolCallCount)}</span>
      </p>
      <dl className={styles.facts}>
        <div>
          <dt>Started</dt>
          <dd>
            <DateTime value={new Date(run.startedAt)} />
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(duration)}{running ? " so far" : ""}</dd>
        </div>
        <div>
          <dt>Node runs</dt>
          <dd>{nodeRunCount.toLocaleString("en-US")}</dd>
        </div>
        <div>
          <dt>Tool calls</dt>
          <dd>{toolCallCount.toLocaleString("en-US")}</dd>
        </div>
        {totals ? (
          <>
            <div>
              <dt>Model turns</dt>
              <dd>{totals.turns.toLocaleString("en-US")}</dd>
            </div>
            <div>
              <dt>Tokens</dt>
              <dd>{formatTokens(totals.inputTokens, totals.outputTokens)?.replace(" tokens", "") ?? "–"}</dd>
            </div>
            {totals.costUsd !== null ? (
              <div>
                <dt>Cost</dt>
                <dd>${totals.costUsd.toFixed(4)}</dd>
              </div>
            ) : null}
          </>
        ) : null}
        {run.workerId ? (
          <div>
            <dt>Worker</dt>
            <dd>
              <code>{run.workerId}</code>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Resumed</dt>
          <dd>{plural(run.resumeCount ?? 0, "time")}</dd>
        </div>
      </dl>
      <div className={styles.inputOutput}>
        <div>
          <h2 className={styles.ioHeading}>Input</h2>
          <JsonBlock value={run.input} label="Run input" />
        </div>
        <div>
          {run.error ? (
            <>
              <h2 className={styles.ioHeading}>Error</h2>
              <p className={styles.runError}>{run.error}</p>
            </>
          ) : (
            <>
              <h2 className={styles.ioHeading}>Output</h2>
              {running ? <p className="muted">Not yet: the run is still going.</p> : <JsonBlock value={"result" in run.outputs ? run.outputs.result : run.outputs} label="Run output" />}
              {run.status === "completed" && hasNoResult(run.outputs) ? (
                <p className="notice notice-warning small" role="note">
                  This run ended with no result: no End received a value, so what its nodes produced was not kept as the run&apos;s output. It is still in the trace below. On the canvas, a node whose outputs reach nothing has a warning: connect its output to an End.
                </p>
              ) : null}
            </>
          )}
        </div>
      </div>
    </section>
  );
}

/** No End output, or only empty ones: what the run produced reached no End. */
export function hasNoResult(outputs: Record<string, unknown>): boolean {
  return Object.values(outputs).every((value) => value === null || value === undefined);
}

function statusSentence(status: RunRecord["status"], duration: number, calls: number): string {
  const took = formatDuration(duration);
  switch (status) {
    case "queued":
      return "Queued: waiting for a worker to take it.";
    case "needs-attention":
      return "Needs attention: a call may have run when its worker stopped. Choose below what happens next.";
    case "running":
      // Constant while it runs: a live region that changed every poll would talk over everything.
      return "Running; the trace below updates as calls arrive.";
    case "completed":
      return `Completed in ${took} with ${plural(calls, "tool call")}.`;
    case "failed":
      return `Failed after ${took}.`;
    case "cancelled":
      return `Cancelled after ${took}.`;
  }
}

function CancelButton({ runId, cancelRun }: { runId: string; cancelRun: CancelRunAction }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className={styles.cancel}>
      <button
        type="button"
        className={styles.dangerButton}
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            const result = await cancelRun(runId);
            setError(result.ok ? null : result.error);
          })
        }
      >
        {pending ? "Cancelling…" : "Cancel run"}
      </button>
      {error ? (
        <p className={styles.cancelError} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A case's first name: the run's first text input, short. */
function caseNameOf(input: Record<string, unknown>): string | undefined {
  const text = Object.values(input).find((value): value is string => typeof value === "string" && value.trim() !== "");
  return text && text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
