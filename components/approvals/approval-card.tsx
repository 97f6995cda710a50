"use client";

import Link from "next/link";
import { DateTime } from "@/components/ui/date-time";
import { policyLabel } from "@/lib/manifest/browser";
import type { WaitingApproval } from "@/lib/trace/browser";
import { ApprovalDecisionForm, type DecideApprovalAction } from "./approval-decision-form";
import { HoldCauses } from "./hold-causes";
import { TaintedArgumentTable } from "./tainted-argument-table";
import { WaitingCallApp } from "@/components/mcp-app/call-app";
import styles from "./approvals.module.css";

export interface ApprovalCardProps {
  approval: WaitingApproval;
  decide?: DecideApprovalAction;
  onDecided: (message: string) => void;
  /** The Approvals page names the run; the run page does not need to. */
  showRun?: boolean;
}

/**
 * One call waiting for approval: which run, agent and tool, its arguments
 * with the tainted parts marked, the policy that asked and why, since when
 * it waits and when it is denied for want of a decision; then the decision form.
 */
export function ApprovalCard({ approval, decide, onDecided, showRun = true }: ApprovalCardProps) {
  const { request, runId } = approval;
  const headingId = `approval-${approval.callId}`;
  return (
    <article className={`card ${styles.card}`} aria-labelledby={headingId} data-call-id={approval.callId}>
      <h3 id={headingId} className={styles.cardHeading}>
        <code>
          {request.server}/{request.tool}
        </code>{" "}
        called by <code>{request.nodeId}</code>
      </h3>
      <dl className={styles.facts}>
        {showRun ? (
          <>
            <dt>Run</dt>
            <dd>
              <Link href={`/runs/${encodeURIComponent(runId)}`}>{approval.workflowName}</Link> <span className="muted small">{runId.slice(0, 8)}</span>
            </dd>
          </>
        ) : null}
        <dt>Held because</dt>
        <dd>
          <HoldCauses approval={approval} />
        </dd>
        <dt>Why it asks</dt>
        <dd>{request.approval.reason}</dd>
        <dt>Policy</dt>
        <dd>
          <code>{policyLabel(request.approval.policy)}</code> <span className="muted small">set at {request.approval.setAt}</span>
        </dd>
        <dt>Waiting since</dt>
        <dd>
          <DateTime value={new Date(request.approval.since)} />
        </dd>
        <dt>Denied if nobody decides by</dt>
        <dd>
          <DateTime value={new Date(approval.deadline)} />
        </dd>
      </dl>
      <TaintedArgumentTable approval={approval} />
      <WaitingCallApp runId={runId} request={request} />
      {decide ? <ApprovalDecisionForm approval={approval} decide={decide} onDecided={onDecided} /> : <p className="small">A runner or above decides this call.</p>}
    </article>
  );
}
