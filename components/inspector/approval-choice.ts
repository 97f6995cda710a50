import { type ApprovalPolicy, approvalPolicy, policyLabel, type WorkflowEdge } from "@/lib/graph";

/** A wired policy as the document stores it: a bare verdict or a policy object. */
export type WiredPolicy = NonNullable<WorkflowEdge["approval"]>;

/** The policies the inspector offers for the tools an edge brings, by the value of their option. */
export const approvalChoices: ReadonlyArray<{ value: string; label: string; policy: WiredPolicy | undefined }> = [
  { value: "", label: "Default: ask when outside content flows into a tool that writes", policy: undefined },
  { value: "allow", label: "Allow every call", policy: "allow" },
  { value: "ask", label: "Ask a person before every call", policy: "ask" },
  { value: "deny", label: "Deny every call", policy: "deny" },
  { value: "rules:tainted-deny", label: "Rules: deny when outside content flows into a tool that writes", policy: approvalPolicy.parse({ decide: "rules", taintedWrite: "deny" }) },
  { value: "rules:strict", label: "Rules: also ask before destructive and open-world tools", policy: approvalPolicy.parse({ decide: "rules", taintedWrite: "ask", destructive: "ask", openWorld: "ask" }) },
];

/**
 * The option a stored policy shows as; a policy set by hand that is none of
 * the offered ones keeps its own option ("custom: …") so choosing nothing
 * never rewrites it.
 */
export function choiceOf(policy: unknown): { value: string; label: string } {
  if (policy === undefined) return approvalChoices[0];
  const parsed = approvalPolicy.safeParse(typeof policy === "string" ? { decide: policy } : policy);
  if (!parsed.success) return { value: "custom", label: "Custom (not a valid policy: the default applies)" };
  const same = approvalChoices.find((choice) => choice.policy !== undefined && sameAs(parsed.data, choice.policy));
  return same ?? { value: "custom", label: `Custom: ${policyLabel(parsed.data)}` };
}

function sameAs(policy: ApprovalPolicy, wired: WiredPolicy): boolean {
  const other = approvalPolicy.parse(typeof wired === "string" ? { decide: wired } : wired);
  return JSON.stringify(policy) === JSON.stringify(other);
}
