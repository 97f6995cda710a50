export { type ApprovalPolicy, type ApprovalPolicyInput, type ApprovalVerdict, approvalPolicy, approvalVerdict, defaultApprovalPolicy, policyLabel } from "../manifest/schemas/approval-policy";
export { type CallDecision, decideCall, type HoldCause, type PolicyCall, strictestOf, type TaintedContextSource, type ToolHints } from "./decide-call";
export { type AppliedDecision, decideApplied } from "./decide-applied";
export { type TaintedArgument, type TaintSourceText, taintedArguments } from "./tainted-arguments";
export { type TaintSource, TaintedValueIndex } from "./tainted-value-index";
export { type AppliedPolicy, parsedPolicy, type PolicyWiring, policyFor } from "./policy-for-tool";
export { approvalDeadline, expiredWaits } from "./approval-deadline";
export { type ApprovalDecision, approvalDecision } from "./approval-decision";
