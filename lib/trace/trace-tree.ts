import type { NodeStatus } from "./run-events";
import type { NodeRunRecord, RunTrace, ToolCallRecord } from "./run-trace";

/**
 * The trace as the rows of a tree, flattened for a virtualized list: node
 * runs, under each its tool calls, under a Task's tool call the node runs of
 * the sub-flow it started (NodeRun.parentToolCallId), and so on down. Pure:
 * the trace page calls it whenever the trace, the filters, or what is open
 * change.
 */

/** "" means any. */
export interface TraceFilters {
  nodeId: string;
  tool: string;
  errorsOnly: boolean;
}

export const noFilters: TraceFilters = { nodeId: "", tool: "", errorsOnly: false };

export type TraceRow =
  | { kind: "node"; key: string; depth: number; nodeRun: NodeRunRecord; callCount: number; collapsed: boolean }
  | { kind: "call"; key: string; depth: number; call: ToolCallRecord; nodeId: string; expanded: boolean; subflowCount: number }
  | { kind: "detail"; key: string; depth: number; call: ToolCallRecord }
  /** Rows with no recorded parent: a sub-flow whose Task call has not returned yet, or calls from outside MCP hosts. */
  | { kind: "group"; key: string; depth: number; label: string; startedAt: string };

export interface TraceTree {
  rows: TraceRow[];
  /** Tool calls that pass the filters (all of them when none is set). */
  matchingCalls: number;
  totalCalls: number;
}

export interface TraceTreeOptions {
  filters?: TraceFilters;
  /** Tool-call ids whose arguments and result are shown. */
  expandedCalls?: ReadonlySet<string>;
  /** Node-run ids whose tool calls are hidden. */
  collapsedNodeRuns?: ReadonlySet<string>;
}

const problemStatuses: ReadonlySet<NodeStatus> = new Set(["failed", "stuck", "max_turns", "cancelled"]);

/** A node run that did not simply complete: what "errors only" keeps besides failed calls. */
export function isProblemStatus(status: NodeStatus): boolean {
  return problemStatuses.has(status);
}

type RootEntry = { startedAt: string; emit: () => void };

/**
 * @example
 * const { rows } = buildTraceTree(trace, { filters: { nodeId: "", tool: "convertUnits", errorsOnly: false } });
 */
export function buildTraceTree(trace: Pick<RunTrace, "nodeRuns" | "toolCalls">, options: TraceTreeOptions = {}): TraceTree {
  const filters = options.filters ?? noFilters;
  const expanded = options.expandedCalls ?? new Set<string>();
  const collapsed = options.collapsedNodeRuns ?? new Set<string>();
  const index = indexTrace(trace);
  const active = filters.nodeId !== "" || filters.tool !== "" || filters.errorsOnly;

  const nodeIdOf = (call: ToolCallRecord) => (call.nodeRunId ? index.nodeRunById.get(call.nodeRunId)?.nodeId : undefined) ?? call.caller;
  const callMatches = (call: ToolCallRecord) =>
    (!filters.tool || call.tool === filters.tool) && (!filters.errorsOnly || call.isError) && (!filters.nodeId || nodeIdOf(call) === filters.nodeId);
  const nodeMatches = (nodeRun: NodeRunRecord) =>
    !filters.tool && (!filters.nodeId || nodeRun.nodeId === filters.nodeId) && (!filters.errorsOnly || isProblemStatus(nodeRun.status));

  // Visible: matches itself, or holds something that does. Memoized; `seen` stops a corrupt cycle.
  const visible = new Map<string, boolean>();
  const seen = new Set<string>();
  const callVisible = (call: ToolCallRecord): boolean => {
    if (!active) return true;
    const key = `c:${call.id}`;
    if (visible.has(key)) return visible.get(key)!;
    if (seen.has(key)) return false;
    seen.add(key);
    const result = callMatches(call) || (index.subflows.get(call.id) ?? []).some(nodeVisible);
    visible.set(key, result);
    return result;
  };
  const nodeVisible = (nodeRun: NodeRunRecord): boolean => {
    if (!active) return true;
    const key = `n:${nodeRun.id}`;
    if (visible.has(key)) return visible.get(key)!;
    if (seen.has(key)) return false;
    seen.add(key);
    const result = nodeMatches(nodeRun) || (index.callsByNodeRun.get(nodeRun.id) ?? []).some(callVisible);
    visible.set(key, result);
    return result;
  };

  const rows: TraceRow[] = [];
  const emitted = new Set<string>();
  const emitNode = (nodeRun: NodeRunRecord, depth: number) => {
    if (emitted.has(nodeRun.id)) return;
    emitted.add(nodeRun.id);
    const calls = index.callsByNodeRun.get(nodeRun.id) ?? [];
    const isCollapsed = collapsed.has(nodeRun.id);
    rows.push({ kind: "node", key: `node:${nodeRun.id}`, depth, nodeRun, callCount: calls.length, collapsed: isCollapsed });
    if (isCollapsed) return;
    for (const call of calls) if (callVisible(call)) emitCall(call, depth + 1);
  };
  const emitCall = (call: ToolCallRecord, depth: number) => {
    if (emitted.has(call.id)) return;
    emitted.add(call.id);
    const subflow = index.subflows.get(call.id) ?? [];
    const isExpanded = expanded.has(call.id);
    rows.push({ kind: "call", key: `call:${call.id}`, depth, call, nodeId: nodeIdOf(call), expanded: isExpanded, subflowCount: subflow.length });
    if (isExpanded) rows.push({ kind: "detail", key: `detail:${call.id}`, depth: depth + 1, call });
    for (const nodeRun of subflow) if (nodeVisible(nodeRun)) emitNode(nodeRun, depth + 1);
  };

  const roots: RootEntry[] = [];
  for (const nodeRun of index.subflows.get(null) ?? []) {
    if (nodeVisible(nodeRun)) roots.push({ startedAt: nodeRun.startedAt, emit: () => emitNode(nodeRun, 0) });
  }
  for (const [parentToolCallId, nodeRuns] of index.pendingTasks) {
    const shown = nodeRuns.filter(nodeVisible);
    if (shown.length === 0) continue;
    roots.push({
      startedAt: shown[0].startedAt,
      emit: () => {
        rows.push({ kind: "group", key: `task:${parentToolCallId}`, depth: 0, label: "Sub-flow of a task call that has not returned yet", startedAt: shown[0].startedAt });
        for (const nodeRun of shown) emitNode(nodeRun, 1);
      },
    });
  }
  const outside = index.unattachedCalls.filter(callVisible);
  if (outside.length > 0) {
    roots.push({
      startedAt: outside[0].startedAt,
      emit: () => {
        rows.push({ kind: "group", key: "outside", depth: 0, label: "Calls with no node run (outside MCP hosts)", startedAt: outside[0].startedAt });
        for (const call of outside) emitCall(call, 1);
      },
    });
  }
  roots.sort((a, b) => compareText(a.startedAt, b.startedAt));
  for (const root of roots) root.emit();

  const matchingCalls = active ? trace.toolCalls.filter(callMatches).length : trace.toolCalls.length;
  return { rows, matchingCalls, totalCalls: trace.toolCalls.length };
}

interface TraceIndex {
  nodeRunById: Map<string, NodeRunRecord>;
  callsByNodeRun: Map<string, ToolCallRecord[]>;
  /** Node runs by the tool call that started them; `null`: the run's own graph. */
  subflows: Map<string | null, NodeRunRecord[]>;
  /** Node runs whose parent tool call is not recorded yet, by that call's id. */
  pendingTasks: Map<string, NodeRunRecord[]>;
  /** Tool calls with no (known) node run. */
  unattachedCalls: ToolCallRecord[];
}

function indexTrace(trace: Pick<RunTrace, "nodeRuns" | "toolCalls">): TraceIndex {
  const nodeRunById = new Map(trace.nodeRuns.map((nodeRun) => [nodeRun.id, nodeRun]));
  const callIds = new Set(trace.toolCalls.map((call) => call.id));
  const callsByNodeRun = new Map<string, ToolCallRecord[]>();
  const unattachedCalls: ToolCallRecord[] = [];
  for (const call of [...trace.toolCalls].sort(byStartThenSequence)) {
    if (call.nodeRunId && nodeRunById.has(call.nodeRunId)) push(callsByNodeRun, call.nodeRunId, call);
    else unattachedCalls.push(call);
  }
  const subflows = new Map<string | null, NodeRunRecord[]>();
  const pendingTasks = new Map<string, NodeRunRecord[]>();
  for (const nodeRun of [...trace.nodeRuns].sort((a, b) => compareText(a.startedAt, b.startedAt))) {
    const parent = nodeRun.parentToolCallId;
    if (parent === null || callIds.has(parent)) push(subflows, parent, nodeRun);
    else push(pendingTasks, parent, nodeRun);
  }
  return { nodeRunById, callsByNodeRun, subflows, pendingTasks, unattachedCalls };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** ISO times of one format sort as text. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function byStartThenSequence(a: ToolCallRecord, b: ToolCallRecord): number {
  return compareText(a.startedAt, b.startedAt) || a.sequence - b.sequence;
}
