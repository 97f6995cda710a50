// lib/engine's public surface: running a workflow, the environment it runs
// in and its ports (journal, canvas tools, credentials, grants), forks, and
// the nodes' own tests. Server side; it imports no database, React or Next.
export { runWorkflow, type RunRequest, type RunOutcome } from "./run-workflow";
export { cachedNodeTypes, createEngineEnvironment, rankWithToolIndex } from "./local-environment";
export type { CanvasToolServers, ServedTools, TaskOutcome, TaskRequest, WiredServiceNode, WiredTaskStarts } from "./canvas-tools";
export { resolveModel } from "./model-resolver";
export type { AgentToolsContext, EngineEnvironment, ModelRequest, ToolRankerFactory } from "./environment";
export { wiredEdge } from "./approvals/approval-gate";
export type { InlineApprover } from "./approvals/inline-approver";
export type { ChatHistoryTurn } from "./chat/chat-history";
export { credentialsFromEnvironment, environmentCredentialGate, environmentCredentialVariable, type EnvironmentCredentialGate } from "./environment-credentials";
export { bindCredentials, credentialValuesFor, ungrantedCredentials, ungrantedMessage } from "./executors/credentials";
export type { RecordedModelTurn } from "./journal/agent-steps";
export { changedNodes, checkForkDocument, replayedNodesChanged, withAgentSetting } from "./journal/fork-document";
export { forkIdMap, planFork, withMappedIds, type ForkProblem, type ForkSource } from "./journal/fork-plan";
export { JournalUnavailableError, type AttentionChoice, type JournalEntry, type RecordedStep, type RunJournal, type StepRows } from "./journal/run-journal";
export { agentCaseRunner } from "./node-tests/run-agent-case";
export { runNodeTests, type AgentCaseRunner, type CaseOutcome as NodeTestOutcome, type NodeTestOptions } from "./node-tests/run-node-tests";
export type { RecordedAnswer } from "./questions/question-desk";
export { approvalGrantKey, credentialGrantKey, type WorkflowGrants } from "./workflow-grants";
