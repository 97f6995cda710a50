// Runs: the one service that makes and moves them, the environment they run
// in, and the workers that take them. Server side only, and free of
// "server-only" so the command lines import it too: the outside MCP hosts'
// runs (`outside-runs.ts`, the app's MCP endpoint only) and the start-up
// hook's `start-up.ts` are public files of their own.
export { RunService, type OnceKey, type RunServiceOptions, type RunState, type StartRunOptions, type StartRunRequest, type StartRunResult } from "./run-service";
export { acceptedDelivery, idempotencyKey, idempotencyKeyLifetimeMs, scheduleTick } from "./once-keys";
export { closeProcessRuns, onLocalRunQueued, runService, wakeWorkers } from "./process-runs";
export { runEnvironment, runNodeTypes, runNodesDir, type RunEnvironmentOptions } from "./run-environment";
export { forkOptionsOf, type ForkOptions } from "./fork-options";
export { maxResumes, startWorkerRuntime, type WorkerRuntime, type WorkerRuntimeOptions } from "./worker-runtime";
export { embeddedWorkerWanted, startEmbeddedWorker } from "./embedded-worker";
export { casesDir, keepRunAsTest, runTestCases, type CaseResult, type CaseToRun, type RunCasesOptions } from "./test-cases";
export { beginEvaluation, evaluateInBackground, EvaluationRequestError, runEvaluation, typedCells, type RunEvaluationOptions } from "./evaluation-runs";
export { caseOutcome, stepKeyNode, workflowCases, type CaseOutcome, type WorkflowCases } from "./workflow-cases";
export { followRunStream, unfinishedAnswerText, type ChatTurnMetadata, type FollowRunStreamOptions } from "./run-stream";
export { chatTurnResponse, runStreamResponse, type ChatTurnResponseOptions } from "./chat-turn-response";
export { startChatTurn, type ChatTurnRequest, type ChatTurnStart } from "./chat-turns";
export { recordVersionTests, sweepInterruptedVersionTests, versionItemOf, versionTestStart, versionTests, type VersionTests } from "./version-tests";
export { callToolFromFrame, toolAppOf } from "./tool-apps";
export { startDeliveryRun } from "./trigger-runs";
