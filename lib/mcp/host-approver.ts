import type { InlineApprover } from "../engine";
import type { QuestionAsker } from "../run-model/tool-question";

/** The form a host's user decides a waiting call with. */
export const approvalQuestionSchema = {
  type: "object",
  properties: {
    decision: { type: "string", title: "Decision", oneOf: [{ const: "approve", title: "Approve the call" }, { const: "deny", title: "Deny the call" }] },
    reason: { type: "string", title: "Reason", description: "When denying: the agent receives it as the tool's error" },
  },
  required: ["decision"],
} as const;

/**
 * Decides the approvals of a served workflow's sub-flow by asking the
 * outside host (MCP elicitation, form mode), when the host declared it can
 * be asked: approve, or deny with the reason its user gives; decline is a
 * denial. Cancel, an answer that fits neither, or a host that fails to
 * answer leaves the call waiting for a person in the app, as without it.
 */
export function hostApprover(ask: QuestionAsker, hostName: string, now: () => Date = () => new Date()): InlineApprover {
  return async ({ tool, server, arguments: args, approval }) => {
    const message = `${server}/${tool} asks for approval (${approval.reason}; policy set at ${approval.setAt}). Arguments: ${JSON.stringify(args)}`;
    const answer = await ask({ mode: "form", message, requestedSchema: approvalQuestionSchema as unknown as Record<string, unknown> }).catch(() => undefined);
    const by = `mcp-host:${hostName}`;
    const at = now().toISOString();
    if (answer?.action === "decline") return { action: "deny", reason: "the host's user declined to approve it", by, at };
    if (answer?.action !== "accept") return undefined;
    const reason = typeof answer.content?.reason === "string" ? answer.content.reason.trim() : "";
    if (answer.content?.decision === "approve") return { action: "approve", by, at };
    if (answer.content?.decision === "deny") return { action: "deny", reason: reason || "the host's user denied it", by, at };
    return undefined;
  };
}
