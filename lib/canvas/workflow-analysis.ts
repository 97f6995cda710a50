import { type GraphProblem, lookupNodeType, type NodeTypes, validateWorkflow, type Workflow } from "../graph";
import type { CanvasNodeType, LintFinding } from "./canvas-catalogue";
import { type CanvasServer, serverNodeTools, type ServerToolsById } from "./canvas-servers";
import { serverProblems } from "./server-problems";
import { validateConfig } from "./config-check";
import { type AgentToolCost, agentToolCosts } from "./tool-cost";

/** One problem as the canvas shows it: from graph validation, or from the lint of the node's type. */
export interface CanvasProblem {
  source: "graph" | "lint";
  severity: "error" | "warning";
  code: string;
  message: string;
  /** For graph problems, the field inside the node (e.g. `config.maxTurns`). */
  field?: string;
  /** For lint problems, `file:line:col` of the manifest. */
  place?: string;
}

export interface NodeAnalysis {
  problems: CanvasProblem[];
  errors: number;
  warnings: number;
}

export interface WorkflowAnalysis {
  byNode: Record<string, NodeAnalysis>;
  byEdge: Record<string, CanvasProblem[]>;
  /** Problems placed on no node or edge (e.g. two Starts are reported on each, but some are global). */
  general: CanvasProblem[];
  toolCosts: Record<string, AgentToolCost>;
  errors: number;
  warnings: number;
}

/** The registry servers the canvas was told about, and the tools listed so far. */
export interface ServerContext {
  servers: ReadonlyMap<string, CanvasServer>;
  tools: ServerToolsById;
}

const noServers: ServerContext = { servers: new Map(), tools: {} };

/**
 * Everything the canvas marks on a workflow: graph validation (with config
 * checked against each type's schema), the lint findings of each node's
 * type, what stands between each MCP server node and its server, and each
 * agent's tool cost. Pure; run again after each edit.
 */
export function analyseWorkflow(workflow: Workflow, nodeTypes: NodeTypes, entries: ReadonlyMap<string, CanvasNodeType>, servers: ServerContext = noServers): WorkflowAnalysis {
  const byNode: Record<string, NodeAnalysis> = {};
  const byEdge: Record<string, CanvasProblem[]> = {};
  const general: CanvasProblem[] = [];
  const place = (nodeId: string): NodeAnalysis => (byNode[nodeId] ??= { problems: [], errors: 0, warnings: 0 });
  for (const problem of validateWorkflow(workflow, nodeTypes, { validateConfig })) {
    const shown = fromGraph(problem);
    if (problem.nodeId) place(problem.nodeId).problems.push(shown);
    else if (problem.edgeId) (byEdge[problem.edgeId] ??= []).push(shown);
    else general.push(shown);
  }
  for (const problem of serverProblems(workflow, servers.servers, servers.tools)) {
    place(problem.nodeId).problems.push({ source: "graph", severity: problem.severity, code: problem.code, message: problem.message, ...(problem.field ? { field: problem.field } : {}) });
  }
  for (const node of workflow.nodes) {
    const lint = entries.get(node.type)?.lint ?? [];
    if (lint.length > 0) place(node.id).problems.push(...lint.map(fromLint));
  }
  let errors = general.filter((problem) => problem.severity === "error").length;
  let warnings = general.length - errors;
  for (const analysis of Object.values(byNode)) {
    analysis.errors = analysis.problems.filter((problem) => problem.severity === "error").length;
    analysis.warnings = analysis.problems.length - analysis.errors;
    errors += analysis.errors;
    warnings += analysis.warnings;
  }
  for (const problems of Object.values(byEdge)) {
    const edgeErrors = problems.filter((problem) => problem.severity === "error").length;
    errors += edgeErrors;
    warnings += problems.length - edgeErrors;
  }
  const toolCosts = agentToolCosts(workflow, {
    toolsOf: (type, connector) => entries.get(type)?.tools[connector] ?? [],
    toolConnectorOf: (type) => (lookupNodeType(nodeTypes, type)?.hasToolExchange ? (entries.get(type)?.toolConnector ?? "mcpService") : undefined),
    serverToolsOf: (node) => serverNodeTools(node, servers.tools),
  });
  return { byNode, byEdge, general, toolCosts, errors, warnings };
}

function fromGraph(problem: GraphProblem): CanvasProblem {
  return { source: "graph", severity: problem.severity, code: problem.code, message: problem.message, ...(problem.field ? { field: problem.field } : {}) };
}

function fromLint(finding: LintFinding): CanvasProblem {
  return { source: "lint", severity: finding.severity, code: finding.rule, message: finding.message, place: finding.place };
}

/** A problem as the Run dialog lists it: on a node (a link that selects it), or on none. */
export interface RunNotice {
  nodeId?: string;
  message: string;
}

/** The errors that stop a run, nodes first, then edges, then the rest. */
export function runBlockers(analysis: WorkflowAnalysis): RunNotice[] {
  const onNodes = Object.entries(analysis.byNode).flatMap(([nodeId, entry]) => entry.problems.filter((problem) => problem.severity === "error").map((problem) => ({ nodeId, message: problem.message })));
  const onEdges = Object.values(analysis.byEdge).flatMap((problems) => problems.filter((problem) => problem.severity === "error").map((problem) => ({ message: problem.message })));
  const general = analysis.general.filter((problem) => problem.severity === "error").map((problem) => ({ message: problem.message }));
  return [...onNodes, ...onEdges, ...general];
}

/** What a run would lose: the nodes whose outputs reach nothing (graph rule outputs-reach-nothing). Warnings: the run may still start. */
export function runLosses(analysis: WorkflowAnalysis): RunNotice[] {
  return Object.entries(analysis.byNode).flatMap(([nodeId, entry]) => entry.problems.filter((problem) => problem.code === "outputs-reach-nothing").map((problem) => ({ nodeId, message: problem.message })));
}
