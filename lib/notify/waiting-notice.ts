import { policyLabel } from "../manifest";
import type { WaitingApproval } from "../trace";

/**
 * The JSON message a webhook receives when a run starts waiting for a
 * person: enough to route it to a chat and follow the link; no secrets and
 * no argument values (outside content could carry anything), only which
 * arguments there are and which of them are tainted.
 */
export interface WaitingNotice {
  type: "run-waiting";
  waitingFor: "approval";
  runId: string;
  callId: string;
  workflow: { id: string | null; name: string };
  agent: string;
  tool: string;
  reason: string;
  policy: string;
  arguments: { names: string[]; tainted: string[] };
  since: string;
  deadline: string;
  /** Where a person decides: the app's Approvals page. */
  link: string;
  runLink: string;
}

/** The notice for one waiting call: pure. `appUrl` is the app's address as people reach it. */
export function waitingNotice(approval: WaitingApproval, appUrl: string): WaitingNotice {
  const { request } = approval;
  const base = appUrl.replace(/\/+$/, "");
  const args = request.arguments;
  return {
    type: "run-waiting",
    waitingFor: "approval",
    runId: approval.runId,
    callId: approval.callId,
    workflow: { id: approval.workflowId, name: approval.workflowName },
    agent: request.nodeId,
    tool: `${request.server}/${request.tool}`,
    reason: request.approval.reason,
    policy: `${policyLabel(request.approval.policy)} (set at ${request.approval.setAt})`,
    arguments: { names: args && typeof args === "object" && !Array.isArray(args) ? Object.keys(args) : [], tainted: request.approval.tainted.map((argument) => argument.path) },
    since: request.approval.since,
    deadline: approval.deadline,
    link: `${base}/approvals`,
    runLink: `${base}/runs/${encodeURIComponent(approval.runId)}`,
  };
}
