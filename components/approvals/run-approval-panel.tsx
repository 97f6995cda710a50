"use client";

import Link from "next/link";
import type { RunRecord, WaitingApproval } from "@/lib/trace/browser";
import { ApprovalCard } from "./approval-card";
import type { DecideApprovalAction } from "./approval-decision-form";
import styles from "./approvals.module.css";

/** The run page's form for the call its run waits on: the same card as the Approvals page. */
export function RunApprovalPanel({ run, decide }: { run: RunRecord; decide: DecideApprovalAction }) {
  const approval = waitingApprovalOf(run);
  if (!approval) return null;
  return (
    <section className={styles.section} aria-labelledby="run-approval-heading">
      <h2 id="run-approval-heading">
        Waiting for approval <span className="muted small">(also on <Link href="/approvals">Approvals</Link>)</span>
      </h2>
      {/* The run is queued again: reload to follow it from there. */}
      <ApprovalCard approval={approval} decide={decide} onDecided={() => window.location.reload()} showRun={false} />
    </section>
  );
}

/** The run's waiting call as the Approvals page lists it, or null when the run does not wait for approval. */
export function waitingApprovalOf(run: RunRecord): WaitingApproval | null {
  const attention = run.attention;
  if (!attention?.approval || !attention.callId) return null;
  return { callId: attention.callId, runId: run.id, workflowId: run.workflowId, workflowName: run.workflowName, request: attention as WaitingApproval["request"], deadline: attention.approval.deadline };
}
