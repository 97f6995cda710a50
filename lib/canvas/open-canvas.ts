import type { NodeTypes, Workflow } from "../graph";
import { type CanvasCatalogue, type CanvasNodeType, canvasNodeTypes } from "./canvas-catalogue";
import type { CanvasServer } from "./canvas-servers";
import { migrateMcpToolSources } from "./migrate-mcp-tools";
import { analyseWorkflow, type WorkflowAnalysis } from "./workflow-analysis";

/** The catalogue as the canvas looks things up in it: entries by type name, the graph's node types, titles, agents' tool connectors. */
export interface CanvasLookups {
  entries: ReadonlyMap<string, CanvasNodeType>;
  nodeTypes: NodeTypes;
  titleOf: (type: string) => string;
  toolConnectorOf: (type: string) => string | undefined;
}

export function canvasLookups(catalogue: CanvasCatalogue): CanvasLookups {
  const entries = new Map<string, CanvasNodeType>(catalogue.types.map((type) => [type.name, type]));
  return {
    entries,
    nodeTypes: canvasNodeTypes(catalogue),
    titleOf: (type) => entries.get(type)?.title ?? type,
    toolConnectorOf: (type) => (entries.get(type)?.hasToolExchange ? (entries.get(type)?.toolConnector ?? "mcpService") : undefined),
  };
}

/**
 * A workflow as the canvas opens it: MCP servers an agent declares in its
 * `tools` list moved onto the canvas as server nodes (migrateMcpToolSources),
 * and its first analysis (problems, tool costs). The server page makes both,
 * so the browser shows the problems at once and spends no time on the
 * analysis while the canvas first renders; it analyses again after an edit.
 */
export function openCanvasWorkflow(
  workflow: Workflow,
  catalogue: CanvasCatalogue,
  servers: readonly CanvasServer[],
): { workflow: Workflow; analysis: WorkflowAnalysis } {
  const { entries, nodeTypes, toolConnectorOf } = canvasLookups(catalogue);
  const opened = migrateMcpToolSources(workflow, toolConnectorOf).workflow;
  const serverContext = { servers: new Map(servers.map((server) => [server.id, server])), tools: {} };
  return { workflow: opened, analysis: analyseWorkflow(opened, nodeTypes, entries, serverContext) };
}
