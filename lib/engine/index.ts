export { runWorkflow, type RunRequest, type RunOutcome } from "./run-workflow";
export { cachedNodeTypes, createEngineEnvironment, rankWithToolIndex } from "./local-environment";
export type { CanvasToolServers, ServedTools, TaskOutcome, TaskRequest, WiredServiceNode, WiredTaskStarts } from "./canvas-tools";
export { resolveModel } from "./model-resolver";
export { credentialsFromEnvironment } from "./environment-credentials";
export type { AgentToolsContext, EngineEnvironment, ModelRequest, ToolRankerFactory } from "./environment";
