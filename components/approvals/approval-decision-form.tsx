"use client";

import { useId, useState, useTransition } from "react";
import { prettyJson } from "@/components/run/json-block";
import type { WaitingApproval } from "@/lib/trace/browser";
import { checkEditedArguments } from "./edited-arguments";
import styles from "./approvals.module.css";

/** What the form sends: approve (optionally with edited arguments as JSON text) or deny with a reason. */
export type ApprovalFormDecision = { action: "approve"; arguments?: string } | { action: "deny"; reason: string };
/** What the server action answers: the run that goes on and a line saying so, or what is wrong and which field. */
export type ApprovalAnswer = { ok: true; runId: string; message: string } | { ok: false; error: string; field?: "arguments" | "reason" | "callId" };
export type DecideApprovalAction = (callId: string, decision: ApprovalFormDecision) => Promise<ApprovalAnswer>;

/**
 * The three answers to a waiting call: approve it as it is, deny it with a
 * reason (the model receives it as the tool's error and may go on), or edit
 * its arguments and approve. Edited arguments are checked against the
 * tool's input schema here, before anything is sent; a refusal names the
 * field. The server's answer (e.g. "already decided") is shown as it is.
 */
export function ApprovalDecisionForm({ approval, decide, onDecided }: { approval: WaitingApproval; decide: DecideApprovalAction; onDecided: (message: string) => void }) {
  const { request } = approval;
  const tool = request.tool;
  const [reason, setReason] = useState("");
  const [edited, setEdited] = useState(() => prettyJson(request.arguments));
  const [error, setError] = useState<{ text: string; field?: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const ids = { reason: useId(), args: useId(), error: useId() };

  const submit = (decision: ApprovalFormDecision) =>
    startTransition(async () => {
      setError(null);
      const answer = await decide(approval.callId, decision);
      if (!answer.ok) return setError({ text: answer.error, field: answer.field });
      onDecided(answer.message);
    });
  const approveEdited = () => {
    const checked = checkEditedArguments(edited, request.approval.inputSchema, tool);
    if (!checked.ok) return setError({ text: checked.error, field: "arguments" });
    submit({ action: "approve", arguments: JSON.stringify(checked.value) });
  };
  const describedBy = (field: string) => (error?.field === field ? ids.error : undefined);

  return (
    <div className={styles.decision}>
      <div className={styles.decisionRow}>
        <button type="button" className="button" disabled={pending} onClick={() => submit({ action: "approve" })}>
          Approve
        </button>
      </div>
      <div className={styles.decisionField}>
        <label htmlFor={ids.reason}>Reason for denying (the model receives it)</label>
        <textarea id={ids.reason} rows={2} value={reason} onChange={(event) => setReason(event.target.value)} aria-invalid={error?.field === "reason" || undefined} aria-describedby={describedBy("reason")} />
        <button type="button" className="button button-danger" disabled={pending} onClick={() => submit({ action: "deny", reason })}>
          Deny with this reason
        </button>
      </div>
      <details className={styles.decisionField}>
        <summary>Edit the arguments, then approve</summary>
        <label htmlFor={ids.args}>Arguments of {tool} (JSON, checked against its input schema)</label>
        <textarea id={ids.args} rows={Math.min(12, edited.split("\n").length + 1)} value={edited} onChange={(event) => setEdited(event.target.value)} spellCheck={false} className={styles.argumentsEditor} aria-invalid={error?.field === "arguments" || undefined} aria-describedby={describedBy("arguments")} />
        <button type="button" className="button" disabled={pending} onClick={approveEdited}>
          Approve with these arguments
        </button>
      </details>
      {error ? (
        <p role="alert" id={ids.error} className={styles.error}>
          {error.text}
        </p>
      ) : null}
    </div>
  );
}
