"use server";

import { requireRole } from "@/lib/auth";
import { DatabaseError, type DecisionInput } from "@/lib/db";
import { runService } from "@/lib/runs";
import type { ApprovalAnswer, ApprovalFormDecision } from "@/components/approvals/approval-decision-form";

/**
 * A person's decision on a call waiting for approval, from the Approvals
 * page or the run page. The decider is the signed-in person (their email
 * goes into the journal and the decision's trace row). Refused with a
 * message, changing nothing: a call already decided, one whose run was
 * cancelled or ended, a denial without a reason, edited arguments that are
 * not JSON or do not fit the tool's input schema (the form checks that
 * first; this checks again). On success the run is queued and a worker
 * takes it up.
 */
export async function decideApproval(callId: string, decision: ApprovalFormDecision): Promise<ApprovalAnswer> {
  const actor = await requireRole("runner");
  if (typeof callId !== "string" || callId === "") return { ok: false, error: "Which call? No call id was given.", field: "callId" };
  const input = parseDecision(decision, actor.email);
  if (!input.ok) return input;
  try {
    const result = await runService().decide(callId, input.input);
    if (!result.ok) return result;
    const what = input.input.action === "deny" ? "Denied" : input.input.arguments === undefined ? "Approved" : "Approved with the edited arguments";
    return { ok: true, runId: result.runId, message: `${what}; the run is queued to go on.` };
  } catch (error) {
    console.error("The decision could not be recorded:", error);
    const reason = error instanceof DatabaseError ? `: ${error.message}` : " because of an error on our side; the server log has the details";
    return { ok: false, error: `The decision could not be recorded${reason}.` };
  }
}

function parseDecision(decision: ApprovalFormDecision, by: string): { ok: true; input: DecisionInput } | { ok: false; error: string; field?: "arguments" | "reason" } {
  if (decision?.action === "deny") {
    if (typeof decision.reason !== "string" || !decision.reason.trim()) return { ok: false, error: "Say why the call is denied: the model receives the reason.", field: "reason" };
    return { ok: true, input: { action: "deny", reason: decision.reason, by } };
  }
  if (decision?.action !== "approve") return { ok: false, error: "Choose approve or deny." };
  if (decision.arguments === undefined) return { ok: true, input: { action: "approve", by } };
  try {
    return { ok: true, input: { action: "approve", arguments: JSON.parse(String(decision.arguments)), by } };
  } catch (error) {
    return { ok: false, error: `The edited arguments are not JSON: ${(error as Error).message}`, field: "arguments" };
  }
}
