export { type ApprovalPolicy, type ApprovalPolicyInput, type ApprovalVerdict, approvalPolicy, approvalVerdict, defaultApprovalPolicy, policyLabel } from "../graph/approval-policy";
export { type CallDecision, decideCall, type ToolHints } from "./decide-call";
export { type TaintedArgument, type TaintSourceText, taintedArguments } from "./tainted-arguments";
export { type AppliedPolicy, type PolicyWiring, policyFor } from "./policy-for-tool";
export { approvalDeadline, expiredWaits } from "./approval-deadline";
export { type ApprovalDecision, approvalDecision } from "./approval-decision";
