import { type ApprovalPolicy, approvalPolicy, policyLabel } from "@/lib/graph";

/** The agent's approval policies, as one badge on its node: "approvals" with each tool's policy in the title. */
export function ApprovalBadge({ approvals }: { approvals: Record<string, ApprovalPolicy | "allow" | "ask" | "deny"> }) {
  const lines = Object.entries(approvals).map(([tool, policy]) => `${tool}: ${typeof policy === "string" ? policy : policyLabel(approvalPolicy.parse(policy))}`);
  const summary = `Approval policies: ${lines.join("; ")}`;
  return (
    <span className="badge badge-warning" title={summary} aria-label={summary} data-approvals>
      approvals
    </span>
  );
}
