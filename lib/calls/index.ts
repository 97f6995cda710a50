export { CallFailure, type CallFailureCode } from "./call-failure";
export { executeCall, type CallContext, type CallReply, type LoopState } from "./execute-call";
export { runCalls, type CallsOutcome } from "./run-calls";
export { invokeMethod, type MethodResult, type MethodScope, type RunFacts } from "./invoke-method";
export { runStep, type StepResult } from "./run-step";
export { renderUrl } from "./render-url";
export { type Credentials } from "./render-request";
export { joinValues, matchedValue, readsEvents } from "./stream-outputs";
// The fixture HTTP server answers a node's test.yaml fixtures (lib/engine/node-tests).
export { startFixtureServer } from "./fixture-server";
