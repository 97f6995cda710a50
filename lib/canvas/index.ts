// lib/canvas: pure helpers behind the canvas editor (no React, no React Flow):
// the catalogue the browser gets, connection checks, analysis, layout, ids, clipboard.
export {
  canvasCatalogue,
  canvasNodeTypes,
  type CanvasCatalogue,
  type CanvasNodeType,
  type LintFinding,
  type ToolSpec,
} from "./canvas-catalogue";
export { agentToolCosts, discoveryThresholdTokens, estimateTokens, modelToolNames, type AgentToolCost, type AgentToolItem, type ToolsOf } from "./tool-cost";
export { analyseWorkflow, type CanvasProblem, type NodeAnalysis, runBlockers, runLosses, type RunNotice, type ServerContext, type WorkflowAnalysis } from "./workflow-analysis";
export { serverNodeTools, serverSearchText, type CanvasServer, type ServerAvailability, type ServerTools, type ServerToolsById } from "./canvas-servers";
export { serverProblems, type ServerProblem } from "./server-problems";
export { migrateMcpToolSources } from "./migrate-mcp-tools";
export { canvasLookups, openCanvasWorkflow, type CanvasLookups } from "./open-canvas";
export { configIssues, validateConfig } from "./config-check";
export { edgeHandleIds, handleId, isSourceRole, parseHandleId } from "./handle-ids";
export { connectionChoices, handleWords, type ConnectionChoice, type HandleChoices } from "./connection-choices";
export { proposeConnection, type DrawnConnection, type ProposedEdge } from "./propose-connection";
export { autoLayout, type LayoutEdge, type LayoutNode, type LayoutOptions } from "./auto-layout";
export { uniqueId } from "./node-ids";
export { copyFragment, pasteFragment, readFragment, fragmentMarker, type Fragment } from "./fragment";
export { pasteOffset, type PlacedBox } from "./paste-placement";
export { serverDefaultBadge, withServerDefaultBadges } from "./server-default-badges";
export { edgeLabelPoint, overlaps, pathCorners, type Box, type Point } from "./edge-label-place";
