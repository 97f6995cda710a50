// lib/tools: the three tool layers (builtin, custom, mcp) behind one declaration format,
// the AgentTool shape every layer meets in, tool search and the tool budget.
// The canvas (browser code) imports `tool-budget.ts` alone: the rest is server side.
export type { AgentTool, CallMeta, ToolOutcome } from "./agent-tool";
export {
  toolSource,
  builtinToolSource,
  customToolSource,
  mcpToolSource,
  toolSourceInput,
  normalizeToolSource,
  normalizeToolSources,
  definedToolsIn,
  type ToolSource,
  type ToolSourceInput,
  type BuiltinToolSource,
  type CustomToolSource,
  type McpToolSource,
} from "./tool-source";
export {
  defineTool,
  tool,
  isDefinedTool,
  defaultToolTimeoutMs,
  type DefinedTool,
  type DefinedToolSpec,
  type DefinedToolOutcome,
  type ToolCallContext,
  type ToolExecutionContext,
} from "./define-tool";
export { ToolDefinitionError, type ToolDefinitionProblem } from "./tool-definition-error";
export { CustomToolRegistry } from "./custom-tool-registry";
export { customAgentTool, customToolServer } from "./custom-agent-tool";
export { McpResolveError, type McpToolResolver, type McpSourceRequest, type McpAgentRef, type McpResolveProblem, type McpResolveOptions } from "./mcp-tool-resolver";
export { mcpAgentTools } from "./mcp-agent-tools";
export { tracedTool, type TracedOutcome, type TracedToolOptions } from "./traced-tool";
export type { ToolBinding } from "./tool-binding";
export { builtinToolNames, isBuiltinToolName, builtinToolServer, createBuiltinTool, RunMemory, localIsoTime, type BuiltinToolName } from "./builtin";
export { ToolSearchError, createToolIndex, defaultResultCount, parseSearchableTools, type ToolMatch } from "./search";
export { discoveryThresholdTokens, estimateTokens, modelToolNames } from "./tool-budget";
export { raceTimeout } from "./tool-timeout";
