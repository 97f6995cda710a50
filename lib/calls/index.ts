export { CallFailure, type CallFailureCode } from "./call-failure";
export { executeCall, type CallContext, type CallReply } from "./execute-call";
export { runCalls, type CallsOutcome } from "./run-calls";
export { invokeMethod, type MethodResult, type MethodScope } from "./invoke-method";
export { runStep, type StepResult } from "./run-step";
export { renderUrl } from "./render-url";
export { type Credentials } from "./render-request";
