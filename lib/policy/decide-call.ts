import type { ApprovalPolicy, ApprovalVerdict } from "../graph/approval-policy";
import type { TaintedArgument } from "./tainted-arguments";

/** What a tool says about itself (MCP tool annotations, a method's declaration, a built-in's nature). */
export interface ToolHints {
  readOnly?: boolean;
  destructive?: boolean;
  openWorld?: boolean;
}

export interface CallDecision {
  verdict: ApprovalVerdict;
  /** Which part of the policy decided: "decide" (the policy's fixed answer), "taintedWrite", "destructive", "openWorld", or "none". */
  rule: "decide" | "taintedWrite" | "destructive" | "openWorld" | "none";
  /** Why, in a sentence a person reads on the Approvals page and the model reads when denied. */
  reason: string;
}

const strength: Record<ApprovalVerdict, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * Decides one call from its policy, the tool's hints and the arguments'
 * taint: pure. Under `rules`, every rule that applies gives a verdict and
 * the strictest wins (deny over ask over allow).
 *
 * @example
 * decideCall(defaultApprovalPolicy, { tool: "send_email", hints: {}, tainted: [{ path: "to", … }] })
 * // { verdict: "ask", rule: "taintedWrite", reason: "argument to derives from tainted content …" }
 */
export function decideCall(policy: ApprovalPolicy, call: { tool: string; hints: ToolHints; tainted: readonly TaintedArgument[] }): CallDecision {
  if (policy.decide !== "rules") return { verdict: policy.decide, rule: "decide", reason: `the policy for ${call.tool} is "${policy.decide}"` };
  const candidates: CallDecision[] = [];
  if (call.tainted.length > 0 && call.hints.readOnly !== true) {
    const paths = call.tainted.map((argument) => argument.path || "(the arguments)").join(", ");
    candidates.push({ verdict: policy.taintedWrite, rule: "taintedWrite", reason: `${call.tool} is not read-only and ${plural(call.tainted.length, "argument")} ${paths} ${call.tainted.length === 1 ? "derives" : "derive"} from tainted content` });
  }
  if (call.hints.destructive === true) candidates.push({ verdict: policy.destructive, rule: "destructive", reason: `${call.tool} is marked destructive` });
  if (call.hints.openWorld === true) candidates.push({ verdict: policy.openWorld, rule: "openWorld", reason: `${call.tool} is marked open-world` });
  const strictest = candidates.reduce<CallDecision | undefined>((best, next) => (!best || strength[next.verdict] > strength[best.verdict] ? next : best), undefined);
  if (!strictest || strictest.verdict === "allow") return { verdict: "allow", rule: strictest?.rule ?? "none", reason: strictest ? `${strictest.reason}, which the policy allows` : "no rule applies" };
  return strictest;
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}
