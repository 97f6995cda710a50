import type { ApprovalPolicy } from "../manifest/browser";
import { type CallDecision, decideCall, type HoldCause, type PolicyCall } from "./decide-call";
import type { AppliedPolicy } from "./policy-for-tool";

/** A decision, with the policy that made it and where that policy was set. */
export interface AppliedDecision extends CallDecision {
  policy: ApprovalPolicy;
  setAt: string;
}

const strength = { allow: 0, ask: 1, deny: 2 } as const;

/**
 * Decides a call under the applied policy and, when there is one, the
 * server's floor: the stricter verdict wins, so a document's policy can make
 * a tool stricter than its server's default but never looser. Wildcard
 * allows passed over for a tainted context are said in the reason.
 *
 * @example
 * decideApplied({ policy: allow, setAt: 'node approvals["*"]', floor: { policy: ask, setAt: "the server default (mail)" }, passedOver: [] }, call)
 * // { verdict: "ask", setAt: "the server default (mail)", reason: "… a document's policy cannot loosen it" }
 */
export function decideApplied(applied: AppliedPolicy, call: PolicyCall): AppliedDecision {
  const own = { ...decideCall(applied.policy, call), policy: applied.policy, setAt: applied.setAt };
  const passed = applied.passedOver.length ? ` (${applied.passedOver.join(", ")} allows every tool, and an allow for a call from a tainted context must name the tool)` : "";
  const decided = { ...own, reason: `${own.reason}${passed}` };
  if (!applied.floor) return decided;
  const floor = decideCall(applied.floor.policy, call);
  if (strength[floor.verdict] <= strength[own.verdict]) return decided;
  return {
    ...floor,
    causes: [...new Set<HoldCause>([...floor.causes, "policy"])],
    policy: applied.floor.policy,
    setAt: applied.floor.setAt,
    reason: `${floor.reason}: ${applied.floor.setAt} is a floor that ${applied.setAt} cannot loosen unless an owner approves it for this workflow on its Grants page`,
  };
}
