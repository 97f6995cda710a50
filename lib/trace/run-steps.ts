import type { NodeRunRecord, RunTrace, ToolCallRecord } from "./run-trace";
import type { ModelTurnLike, NodeStatus, ReplayOrigin } from "./trace-types";

export type { ModelTurnLike } from "./trace-types";

/**
 * A run as one ordered list of steps: each node run, under it its model
 * turns and tool calls in the order they happened, under a Task's tool call
 * the node runs of its sub-flow, and so on down. Every step has a `key`
 * that names its place in the run by node and order, not by row id
 * ("agent#1/call 2": the second tool call of the first run of node agent),
 * so the same place in two runs has the same key: what a run diff lines up
 * and what OpenTelemetry spans hang from. Pure.
 */

interface StepBase {
  key: string;
  /** 0 for the run's own node runs; one more per Task call a sub-flow runs under. */
  depth: number;
  /** The node that ran this step (for a tool call: the calling node). */
  nodeId: string;
  startedAt: string;
  /** null while it runs. */
  durationMs: number | null;
  /** Placed by the run's timeline: a fork took it from its parent's journal (replayed, not run) at `startedAt`. */
  replayedFrom?: ReplayOrigin;
}

export interface NodeStep extends StepBase {
  kind: "node";
  nodeRunId: string;
  nodeType: string;
  status: NodeStatus;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  error: string | null;
  turns: number;
}

export interface ToolCallStep extends StepBase {
  kind: "tool-call";
  callId: string;
  tool: string;
  server: string;
  arguments: unknown;
  result: unknown;
  error: string | null;
  isError: boolean;
  tainted: boolean;
}

/**
 * One model turn: what the model answered and what it cost. The rows come
 * with durable runs (issue 8's journal); a trace without them simply has
 * no turn steps, and everything downstream treats them as one more kind.
 */
export interface ModelTurnStep extends StepBase {
  kind: "model-turn";
  turnId: string;
  model: string;
  provider: string | null;
  answer: { text: string; toolCalls: unknown[] };
  finishReason: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  /** In US dollars, when the node's manifest declares prices. */
  costUsd: number | null;
}

export type RunStep = NodeStep | ToolCallStep | ModelTurnStep;


export type StepSource = Pick<RunTrace, "nodeRuns" | "toolCalls"> & { modelTurns?: readonly ModelTurnLike[] };

/**
 * @example
 * runSteps(trace).map((step) => step.key) // ["start#1", "agent#1", "agent#1/call 1", "end#1"]
 */
export function runSteps(trace: StepSource): RunStep[] {
  const index = indexSteps(trace);
  const steps: RunStep[] = [];
  const visited = new Set<string>();

  const emitNodeRuns = (nodeRuns: readonly NodeRunRecord[], prefix: string, depth: number) => {
    const occurrences = new Map<string, number>();
    for (const nodeRun of nodeRuns) {
      if (visited.has(nodeRun.id)) continue; // a corrupt cycle of task calls
      visited.add(nodeRun.id);
      const occurrence = (occurrences.get(nodeRun.nodeId) ?? 0) + 1;
      occurrences.set(nodeRun.nodeId, occurrence);
      const key = `${prefix}${nodeRun.nodeId}#${occurrence}`;
      steps.push(nodeStep(nodeRun, key, depth));
      emitChildren(nodeRun, key, depth + 1);
    }
  };

  const emitChildren = (nodeRun: NodeRunRecord, nodeKey: string, depth: number) => {
    let calls = 0;
    let turns = 0;
    for (const child of index.childrenOf.get(nodeRun.id) ?? []) {
      if ("tool" in child) {
        calls += 1;
        const key = `${nodeKey}/call ${calls}`;
        steps.push(toolCallStep(child, key, depth, nodeRun.nodeId));
        emitNodeRuns(index.subflows.get(child.id) ?? [], `${key}/`, depth + 1);
      } else {
        turns += 1;
        steps.push(modelTurnStep(child, `${nodeKey}/turn ${turns}`, depth, nodeRun.nodeId));
      }
    }
  };

  emitNodeRuns(index.roots, "", 0);
  // Calls no node run made: an outside MCP host's calls, keyed by who called.
  const hostCalls = new Map<string, number>();
  for (const call of index.hostCalls) {
    const count = (hostCalls.get(call.caller) ?? 0) + 1;
    hostCalls.set(call.caller, count);
    const key = `${call.caller}/call ${count}`;
    steps.push(toolCallStep(call, key, 0, call.caller));
    emitNodeRuns(index.subflows.get(call.id) ?? [], `${key}/`, 1);
  }
  return steps;
}

function indexSteps(trace: StepSource) {
  const byStart = (a: { startedAt: string; id: string }, b: { startedAt: string; id: string }) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id);
  const nodeRuns = [...trace.nodeRuns].sort(byStart);
  const callIds = new Set(trace.toolCalls.map((call) => call.id));
  const nodeRunIds = new Set(nodeRuns.map((nodeRun) => nodeRun.id));
  const subflows = new Map<string, NodeRunRecord[]>();
  const roots: NodeRunRecord[] = [];
  for (const nodeRun of nodeRuns) {
    // A sub-flow whose Task call has not returned yet has no parent row: it waits at the top level.
    if (nodeRun.parentToolCallId && callIds.has(nodeRun.parentToolCallId)) push(subflows, nodeRun.parentToolCallId, nodeRun);
    else roots.push(nodeRun);
  }
  const childrenOf = new Map<string, Array<ToolCallRecord | ModelTurnLike>>();
  const hostCalls: ToolCallRecord[] = [];
  for (const call of [...trace.toolCalls].sort(byStartThenSequence)) {
    if (call.nodeRunId && nodeRunIds.has(call.nodeRunId)) push(childrenOf, call.nodeRunId, call);
    else hostCalls.push(call);
  }
  const turnsOf = new Map<string, ModelTurnLike[]>();
  for (const turn of trace.modelTurns ?? []) if (nodeRunIds.has(turn.nodeRunId)) push(turnsOf, turn.nodeRunId, turn);
  for (const [nodeRunId, turns] of turnsOf) childrenOf.set(nodeRunId, interleave((childrenOf.get(nodeRunId) ?? []) as ToolCallRecord[], turns));
  return { roots, subflows, childrenOf, hostCalls };
}

/**
 * A node run's turns placed among its calls: a turn that says how many
 * calls came before it goes right after them (start times tie at the
 * millisecond); others by start time.
 */
function interleave(calls: readonly ToolCallRecord[], turns: readonly ModelTurnLike[]): Array<ToolCallRecord | ModelTurnLike> {
  if (turns.every((turn) => turn.callsBefore !== undefined)) {
    const ordered = [...turns].sort((a, b) => (a.callsBefore ?? 0) - (b.callsBefore ?? 0) || a.startedAt.localeCompare(b.startedAt));
    const out: Array<ToolCallRecord | ModelTurnLike> = [];
    let next = 0;
    for (const turn of ordered) {
      while (next < calls.length && next < (turn.callsBefore ?? 0)) out.push(calls[next++]);
      out.push(turn);
    }
    return [...out, ...calls.slice(next)];
  }
  return [...calls, ...turns].sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.sequence - b.sequence);
}


function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function nodeStep(nodeRun: NodeRunRecord, key: string, depth: number): NodeStep {
  return {
    kind: "node",
    key,
    depth,
    nodeId: nodeRun.nodeId,
    startedAt: nodeRun.startedAt,
    durationMs: nodeRun.endedAt ? Math.max(0, Date.parse(nodeRun.endedAt) - Date.parse(nodeRun.startedAt)) : null,
    ...(nodeRun.replayedFrom ? { replayedFrom: nodeRun.replayedFrom } : {}),
    nodeRunId: nodeRun.id,
    nodeType: nodeRun.nodeType,
    status: nodeRun.status,
    inputs: nodeRun.inputs,
    outputs: nodeRun.outputs,
    error: nodeRun.error,
    turns: nodeRun.turns,
  };
}

function toolCallStep(call: ToolCallRecord, key: string, depth: number, nodeId: string): ToolCallStep {
  return {
    kind: "tool-call",
    key,
    depth,
    nodeId,
    startedAt: call.startedAt,
    durationMs: call.durationMs,
    ...(call.replayedFrom ? { replayedFrom: call.replayedFrom } : {}),
    callId: call.id,
    tool: call.tool,
    server: call.server,
    arguments: call.arguments,
    result: call.result,
    error: call.error,
    isError: call.isError,
    tainted: call.tainted,
  };
}

function modelTurnStep(turn: ModelTurnLike, key: string, depth: number, nodeId: string): ModelTurnStep {
  return {
    kind: "model-turn",
    key,
    depth,
    nodeId,
    startedAt: turn.startedAt,
    durationMs: turn.durationMs,
    ...(turn.replayedFrom ? { replayedFrom: turn.replayedFrom } : {}),
    turnId: turn.id,
    model: turn.model,
    provider: turn.provider ?? null,
    answer: { text: turn.text, toolCalls: turn.toolCalls ?? [] },
    finishReason: turn.finishReason ?? null,
    inputTokens: turn.inputTokens ?? null,
    outputTokens: turn.outputTokens ?? null,
    costUsd: turn.costUsd ?? null,
  };
}

/** Tool calls by start, then by the order they were written. */
export function byStartThenSequence(a: ToolCallRecord, b: ToolCallRecord): number {
  return a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : a.sequence - b.sequence;
}
