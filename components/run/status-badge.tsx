import type { NodeStatus, RunStatus } from "@/lib/trace/browser";
import styles from "./run.module.css";

const looks: Record<NodeStatus | RunStatus, { label: string; className: string; hint: string }> = {
  queued: { label: "queued", className: "chip", hint: "Waiting for a worker to take it" },
  "needs-attention": { label: "needs attention", className: "badge-warning", hint: "Stopped at a call that may have run when its worker died; a person decides what happens next" },
  waiting: { label: "waiting", className: "chip", hint: "Stopped with its run, which needs attention; it goes on when the run resumes" },
  running: { label: "running", className: "badge-promise", hint: "Still running" },
  completed: { label: "completed", className: "badge-ok", hint: "Ended normally" },
  max_turns: { label: "max turns", className: "badge-warning", hint: "Stopped at its maxTurns limit before the agent finished" },
  stuck: { label: "stuck", className: "badge-warning", hint: "Ended because the agent kept repeating the same call" },
  failed: { label: "failed", className: "badge-error", hint: "Ended with an error" },
  cancelled: { label: "cancelled", className: "chip", hint: "Stopped because the run was cancelled" },
};

/** A needs-attention run whose call an approval policy stopped: no crash, a person's yes or no. */
const approvalLook = { label: "waiting for approval", className: "badge-warning", hint: "A call waits for a person to approve or deny it (see Approvals); no worker holds the run" };

/** A needs-attention run whose tool asked a question (MCP elicitation): a person answers it. */
const inputLook = { label: "waiting for input", className: "badge-warning", hint: "A tool asked a question; a person answers it (see Questions); no worker holds the run" };

/** A run's or a node run's status as a coloured badge; the word is always shown, colour only repeats it. */
export function StatusBadge({ status, waitingForApproval = false, waitingForInput = false }: { status: RunStatus | NodeStatus; waitingForApproval?: boolean; waitingForInput?: boolean }) {
  const look = status !== "needs-attention" ? looks[status] : waitingForApproval ? approvalLook : waitingForInput ? inputLook : looks[status];
  return (
    <span className={`badge ${look.className} ${styles.status}`} title={look.hint} data-status={status}>
      {status === "running" ? <span className={styles.pulse} aria-hidden="true" /> : null}
      {look.label}
    </span>
  );
}
