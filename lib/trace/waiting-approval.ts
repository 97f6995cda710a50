import type { AttentionRequest } from "./run-trace";

/** A call waiting for approval, as the Approvals page, the run page and `npm run workflow -- approvals` show it. */
export interface WaitingApproval {
  /** The id a person decides by: the id the call's trace row will have. */
  callId: string;
  runId: string;
  workflowId: string | null;
  /** The name in the document that ran (frozen at start). */
  workflowName: string;
  request: AttentionRequest & { approval: NonNullable<AttentionRequest["approval"]> };
  deadline: string;
}
