import { type ApprovalDecision, approvalDeadline, type CallDecision } from "../../policy";
import type { ApprovalRequest } from "../../trace";

/** What the gate does with one call that was not recorded: a pure decision. */
export type ApprovalPlan =
  | { action: "run"; args: unknown; decision?: ApprovalDecision }
  | { action: "deny"; message: string; decision?: ApprovalDecision }
  | { action: "wait" };

/**
 * From what the journal holds and what the policy says: a person's decision
 * wins; without one, a wait past its deadline is denied (as the sweep would
 * have recorded it); otherwise the policy's verdict.
 */
export function planApproval(input: { args: unknown; decision?: ApprovalDecision; waiting?: ApprovalRequest; verdict: CallDecision; now: Date }): ApprovalPlan {
  const { decision, waiting } = input;
  if (decision?.action === "approve") return { action: "run", args: decision.arguments === undefined ? input.args : decision.arguments, decision };
  if (decision?.action === "deny") return { action: "deny", message: deniedMessage(decision), decision };
  if (waiting && new Date(waiting.deadline).getTime() <= input.now.getTime()) {
    const timeout = timedOut(waiting, input.now);
    return { action: "deny", message: deniedMessage(timeout), decision: timeout };
  }
  if (input.verdict.verdict === "allow") return { action: "run", args: input.args };
  if (input.verdict.verdict === "deny") return { action: "deny", message: `Switchboard's approval policy denied this call: ${input.verdict.reason}.` };
  return { action: "wait" };
}

/** The decision a wait gets when nobody decided before its deadline. */
export function timedOut(waiting: Pick<ApprovalRequest, "policy" | "deadline">, now: Date): Extract<ApprovalDecision, { action: "deny" }> {
  return { action: "deny", reason: `no one decided within ${waiting.policy.timeoutHours} h (deadline ${waiting.deadline})`, by: "timeout", at: now.toISOString() };
}

/** The tool's error result the model receives when a call is denied. */
export function deniedMessage(decision: Extract<ApprovalDecision, { action: "deny" }>): string {
  return decision.by === "timeout" ? `This call was denied: ${decision.reason}.` : `A person (${decision.by}) denied this call: ${decision.reason}`;
}

/** The request a waiting call shows, with its deadline from the policy. */
export function waitingRequest(parts: Omit<ApprovalRequest, "deadline" | "since">, since: Date): ApprovalRequest {
  return { ...parts, since: since.toISOString(), deadline: approvalDeadline(since, parts.policy).toISOString() };
}
