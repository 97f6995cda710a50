import type { NodeRunState, RunState } from "./run-state";

/**
 * How a run's state moves on. Each function returns a new state; the one
 * given is never changed. Naming a node the run does not cover is a bug in
 * the caller, and throws.
 */

/** Marks nodes as started: running, one more run, and the signals seen so far consumed. */
export function startNodes(state: RunState, nodeIds: readonly string[]): RunState {
  let next = state;
  for (const nodeId of nodeIds) {
    const node = nodeState(next, nodeId);
    if (node.status === "running") throw new Error(`startNodes: node "${nodeId}" is already running.`);
    next = withNode(next, nodeId, { ...node, status: "running", runs: node.runs + 1, signalsAtStart: node.signals });
  }
  return next;
}

/**
 * Records that a node finished with these outputs (by output name; an output
 * that did not fire is left out) and delivers each value along the output's
 * signal edges: it becomes the target input's latest value and counts as a
 * new signal for the target node.
 *
 * @example state = applyOutputs(state, "agent", { answer: "5 km is 3.11 mi" });
 */
export function applyOutputs(state: RunState, nodeId: string, outputs: Record<string, unknown>): RunState {
  return deliver(withNode(state, nodeId, { ...nodeState(state, nodeId), status: "done" }), nodeId, outputs);
}

/**
 * Delivers values a node puts out while it is still running (an agent's
 * `from: tool` rows, after each tool call), exactly as applyOutputs does,
 * but the node stays running: the targets can start now, and the node ends
 * later through applyOutputs or failNode. Only a running node delivers this
 * way; any other is a bug in the caller, and throws.
 *
 * @example state = deliverOutputs(state, "agent", { progress: { tool: "convertUnits" } });
 */
export function deliverOutputs(state: RunState, nodeId: string, outputs: Record<string, unknown>): RunState {
  const node = nodeState(state, nodeId);
  if (node.status !== "running") throw new Error(`deliverOutputs: node "${nodeId}" is ${node.status}, not running; a node that ended delivers through applyOutputs.`);
  return deliver(state, nodeId, outputs);
}

/** Records that a node failed (or hit the cap): it never starts again in this run. */
export function failNode(state: RunState, nodeId: string): RunState {
  return withNode(state, nodeId, { ...nodeState(state, nodeId), status: "failed" });
}

/** Each value along its output's signal edges: the target input's latest value, and one more signal for the target. */
function deliver(state: RunState, nodeId: string, outputs: Record<string, unknown>): RunState {
  let next = state;
  const routes = state.graph.routes[nodeId] ?? {};
  for (const [output, value] of Object.entries(outputs)) {
    if (value === undefined) continue;
    for (const route of routes[output] ?? []) {
      const target = nodeState(next, route.target);
      next = withNode(next, route.target, { ...target, inputs: { ...target.inputs, [route.port]: value }, signals: target.signals + 1 });
    }
  }
  return next;
}

function nodeState(state: RunState, nodeId: string): NodeRunState {
  const node = state.nodes[nodeId];
  if (!node) throw new Error(`Node "${nodeId}" is no step of this run.`);
  return node;
}

function withNode(state: RunState, nodeId: string, node: NodeRunState): RunState {
  return { ...state, nodes: { ...state.nodes, [nodeId]: node } };
}
