export { runWorkflow, type RunRequest, type RunOutcome } from "./run-workflow";
export { cachedNodeTypes, createLocalEnvironment, rankWithToolIndex } from "./local-environment";
export { resolveModel } from "./model-resolver";
export { credentialsFromEnvironment } from "./environment-credentials";
export type { AgentToolsContext, EngineEnvironment, ModelRequest, ToolRankerFactory } from "./environment";
