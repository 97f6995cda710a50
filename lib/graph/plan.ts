import type { RunGraphNode, NodeRunState, RunState } from "./run-state";

/**
 * The pure planner: which nodes start now, with which inputs. The engine's
 * shell loop asks it, starts what it returns (startNodes), and feeds each
 * node's outputs back (applyOutputs) until isRunFinished.
 *
 * Readiness. A step node is ready when it is neither running nor failed and
 * - it is an entry (no inputs, no incoming signal edge: Start, Task Start)
 *   that has not run yet; entries run exactly once; or
 * - every REQUIRED input has a value, and at least one new signal has
 *   arrived since it last started. Optional inputs are passed when they
 *   have a value; they never hold a node back.
 * Values persist: an input keeps its latest value across runs, so in a loop
 * a node reruns with the newest value on each input. A signal that arrives
 * while a node runs is not lost: it makes the node ready again once it is done.
 *
 * Fan-out: one output's value goes along every signal edge from it. Fan-in:
 * a node with several required inputs waits until each has arrived once.
 *
 * The cap: a node may start at most `maxRunsPerNode` times per run. A node
 * that is ready but has used them up is not started; it is listed in
 * `capped`, and the shell should fail it (failNode), which ends its part of
 * the run.
 *
 * Not planned at all: nodes that only offer tools (never steps) and the
 * nodes of tasks' sub-flows (they run when their task is called, in a run
 * state made with `taskStartId`); see createRunState.
 */

export interface ReadyNode {
  nodeId: string;
  type: string;
  /** Which run of the node this is: 1 for the first. */
  run: number;
  /** The latest value on each input that has one. */
  inputs: Record<string, unknown>;
}

export interface ReadyPlan {
  /** The nodes to start now, in document order. */
  start: ReadyNode[];
  /** Ready nodes that have already started `maxRunsPerNode` times. */
  capped: string[];
}

/** The nodes to start now, and those held back by the cap. */
export function planReadyNodes(state: RunState): ReadyPlan {
  const start: ReadyNode[] = [];
  const capped: string[] = [];
  for (const nodeId of state.graph.order) {
    const run = state.nodes[nodeId];
    const node = state.graph.nodes[nodeId];
    if (!isReady(node, run)) continue;
    if (run.runs >= state.maxRunsPerNode) capped.push(nodeId);
    else start.push({ nodeId, type: node.type, run: run.runs + 1, inputs: { ...run.inputs } });
  }
  return { start, capped };
}

/** Finished: nothing is running and nothing can start (capped nodes do not count as able to start). */
export function isRunFinished(state: RunState): boolean {
  const running = Object.values(state.nodes).some((node) => node.status === "running");
  return !running && planReadyNodes(state).start.length === 0;
}

function isReady(node: RunGraphNode, run: NodeRunState): boolean {
  if (run.status === "running" || run.status === "failed") return false;
  if (node.entry) return run.runs === 0;
  return run.signals > run.signalsAtStart && node.requiredInputs.every((port) => Object.hasOwn(run.inputs, port));
}
