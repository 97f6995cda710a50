import { lookupNodeType } from "./builtin-nodes";
import { detachedNodeIds } from "./detached-nodes";
import { nodePorts, type NodeTypes } from "./node-type-info";
import { taskSubflow, topLevelNodeIds } from "./task-subflow";
import type { Workflow } from "./workflow";

/**
 * The state of one run (the workflow's own, or one call of a task), as plain
 * serializable data: the part of the graph the run covers, compiled once,
 * and what has happened to each node. Every function over it returns a new
 * state and never changes the one it was given.
 */

/** Where a value put out on an output goes. */
export interface SignalRoute {
  target: string;
  port: string;
}

/** A node that runs as a step in this run. */
export interface RunGraphNode {
  type: string;
  /** The inputs whose value must have arrived before it runs. */
  requiredInputs: string[];
  /** No inputs and no incoming signal edge: it runs once, when the run begins (Start, Task Start). */
  entry: boolean;
}

export interface RunGraph {
  /** The step nodes' ids in document order, which is the order they are planned in. */
  order: string[];
  nodes: Record<string, RunGraphNode>;
  /** By node id, then output name: where each value goes. Only between step nodes of this run. */
  routes: Record<string, Record<string, SignalRoute[]>>;
}

export type NodeStatus = "idle" | "running" | "done" | "failed";

export interface NodeRunState {
  status: NodeStatus;
  /** How many times the node has started in this run. */
  runs: number;
  /** The latest value that arrived on each input; a value stays until a newer one replaces it. */
  inputs: Record<string, unknown>;
  /** How many signals have arrived, ever. */
  signals: number;
  /** How many had arrived when the node last started: more now means a new signal. */
  signalsAtStart: number;
}

export interface RunState {
  graph: RunGraph;
  /** A node wanting to start more often than this is reported by the planner instead. */
  maxRunsPerNode: number;
  nodes: Record<string, NodeRunState>;
}

export interface RunStateOptions {
  /** Run this Task Start's sub-flow (a call of the task) instead of the workflow's own run. */
  taskStartId?: string;
  /** Default 100. */
  maxRunsPerNode?: number;
}

export const defaultMaxRunsPerNode = 100;

/**
 * The state a run starts in. The workflow's own run covers every node
 * outside the tasks' sub-flows; a task's run covers that sub-flow. A node
 * that only offers tools (no inputs, no incoming signal edge, an
 * `isService: true` connector) is not a step: it answers tool calls and
 * never runs on its own. Nor is a node no edge touches (detachedNodeIds):
 * it was left on the canvas, and nothing reaches it. Call it on a validated workflow: an unknown node
 * type here is a bug, and it throws.
 *
 * @example let state = createRunState(workflow, nodeTypes);
 */
export function createRunState(workflow: Workflow, nodeTypes: NodeTypes, options: RunStateOptions = {}): RunState {
  const graph = compileRunGraph(workflow, nodeTypes, options.taskStartId);
  const idle: NodeRunState = { status: "idle", runs: 0, inputs: {}, signals: 0, signalsAtStart: 0 };
  return {
    graph,
    maxRunsPerNode: options.maxRunsPerNode ?? defaultMaxRunsPerNode,
    nodes: Object.fromEntries(graph.order.map((id) => [id, idle])),
  };
}

function compileRunGraph(workflow: Workflow, nodeTypes: NodeTypes, taskStartId: string | undefined): RunGraph {
  if (taskStartId !== undefined && !workflow.nodes.some((node) => node.id === taskStartId && node.type === "task-start")) {
    throw new Error(`createRunState: "${taskStartId}" is no Task Start of this workflow.`);
  }
  const scope = new Set(taskStartId === undefined ? topLevelNodeIds(workflow) : taskSubflow(workflow, taskStartId));
  const signals = workflow.edges.filter((edge) => edge.kind === "signal" && scope.has(edge.source) && scope.has(edge.target));
  const nodes: Record<string, RunGraphNode> = {};
  const order: string[] = [];
  const detached = detachedNodeIds(workflow);
  for (const node of workflow.nodes) {
    if (!scope.has(node.id) || order.includes(node.id)) continue;
    const info = lookupNodeType(nodeTypes, node.type);
    if (!info) throw new Error(`createRunState: node "${node.id}" has the unknown type "${node.type}"; validate the workflow before running it.`);
    if (detached.has(node.id)) continue;
    const inputs = nodePorts(node, info).inputs;
    const fed = signals.some((edge) => edge.target === node.id);
    const offersTools = info.serviceConnectors.some((connector) => connector.isService);
    if (inputs.length === 0 && !fed && offersTools) continue;
    order.push(node.id);
    nodes[node.id] = { type: node.type, requiredInputs: inputs.filter((port) => port.required).map((port) => port.name), entry: inputs.length === 0 && !fed };
  }
  const routes: RunGraph["routes"] = {};
  for (const edge of signals) {
    if (!nodes[edge.source] || !nodes[edge.target]) continue;
    const outputs = (routes[edge.source] ??= {});
    (outputs[edge.sourceHandle] ??= []).push({ target: edge.target, port: edge.targetHandle });
  }
  return { order, nodes, routes };
}
