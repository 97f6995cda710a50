import type { ApprovalDecision } from "../../policy";
import type { ApprovalRequest } from "../../trace";

/** A call that asks for approval, as an inline approver is shown it. */
export interface InlineApprovalRequest {
  tool: string;
  server: string;
  arguments: unknown;
  approval: ApprovalRequest;
}

/** Decides a waiting call at once (approve, deny), or leaves it to a person in the app (undefined). */
export type InlineApprover = (request: InlineApprovalRequest) => Promise<ApprovalDecision | undefined>;
