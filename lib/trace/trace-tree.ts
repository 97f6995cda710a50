import type { NodeStatus, TimelineWait } from "./trace-types";
import type { NodeRunRecord, RunTrace, ToolCallRecord, TraceTurn } from "./run-trace";
import { type AnchoredCall, type CallSummary, type TraceFilters, filtersActive, noFilters, outsideGroup } from "./trace-page";

/**
 * The trace as the rows of a tree, flattened for a virtualized list: node
 * runs, under each its tool calls (in write order), under a Task's tool
 * call the node runs of the sub-flow it started (NodeRun.parentToolCallId),
 * and so on down. The calls may be loaded only in part: a position whose
 * call is not loaded yet is a "pending" row, which the page fetches when it
 * scrolls into view. Pure: the trace page calls it whenever the data, the
 * filters, or what is open change.
 */

export { noFilters, type TraceFilters } from "./trace-page";

export type TraceRow =
  | { kind: "node"; key: string; depth: number; nodeRun: NodeRunRecord; callCount: number; collapsed: boolean }
  | { kind: "call"; key: string; depth: number; call: CallSummary; nodeId: string; expanded: boolean; subflowCount: number }
  | { kind: "detail"; key: string; depth: number; call: CallSummary }
  /** A model turn of an agent's node run, placed among its calls (before the calls it asked for). */
  | { kind: "turn"; key: string; depth: number; turn: TraceTurn; expanded: boolean }
  | { kind: "turn-detail"; key: string; depth: number; turn: TraceTurn }
  /** A position of a group whose call is not loaded yet. */
  | { kind: "pending"; key: string; depth: number; group: string; position: number }
  /** A model turn of a node run (its `index`-th) that is not loaded yet. */
  | { kind: "pending-turn"; key: string; depth: number; group: string; index: number }
  /** A wait of the run (queued, resumed) or of a node run (for approval, for an answer), as its own span. */
  | { kind: "wait"; key: string; depth: number; wait: TimelineWait }
  /** Rows with no recorded parent: a sub-flow whose Task call has not returned yet, or calls from outside MCP hosts. */
  | { kind: "group"; key: string; depth: number; label: string; startedAt: string };

export type { TraceTurn } from "./run-trace";

export interface TraceTree {
  rows: TraceRow[];
  /** Tool calls that pass the filters (all of them when none is set). */
  matchingCalls: number;
  totalCalls: number;
}

/** What the tree is built from: the node runs whole, the calls as counts per group plus what is loaded. */
export interface TraceTreeInput {
  nodeRuns: readonly NodeRunRecord[];
  /** Calls per group that pass the filters ("" : calls with no node run). */
  groups: Readonly<Record<string, number>>;
  /** Calls per group, no filter: what a node run's row counts. */
  callsByGroup: Readonly<Record<string, number>>;
  /** The loaded call at a position of a group (under the filters), if any. */
  loaded: (group: string, position: number) => CallSummary | undefined;
  /** Every recorded call that started a sub-flow, placed among the filtered calls. */
  anchored: readonly AnchoredCall[];
  matchingCalls: number;
  totalCalls: number;
  /** The run's model turns held whole (any order); shown while no filter is set. Or, paged: */
  modelTurns?: readonly TraceTurn[];
  /** Each node run's turns' places among its calls, in turn order (see TraceOverview.turnPlaces). */
  turnPlaces?: Readonly<Record<string, readonly number[]>>;
  /** The loaded turn of a node run by its number, if any. */
  loadedTurn?: (group: string, index: number) => TraceTurn | undefined;
  /** The run's waits (its timeline's): a node run's among its calls (by `callsBefore`), the run's among the node runs by start. Shown while no filter is set. */
  waits?: readonly TimelineWait[];
}

export interface TraceTreeOptions {
  filters?: TraceFilters;
  /** Tool-call ids whose arguments and result are shown. */
  expandedCalls?: ReadonlySet<string>;
  /** Node-run ids whose tool calls are hidden. */
  collapsedNodeRuns?: ReadonlySet<string>;
  /** Model-turn ids whose answer is shown. */
  expandedTurns?: ReadonlySet<string>;
}

const problemStatuses: ReadonlySet<NodeStatus> = new Set(["failed", "stuck", "max_turns", "cancelled"]);

/** A node run that did not simply complete: what "errors only" keeps besides failed calls. */
export function isProblemStatus(status: NodeStatus): boolean {
  return problemStatuses.has(status);
}

type RootEntry = { startedAt: string; emit: () => void };

/**
 * @example
 * const { rows } = buildTraceRows(input, { filters: { nodeId: "", tool: "convertUnits", errorsOnly: false } });
 */
export function buildTraceRows(input: TraceTreeInput, options: TraceTreeOptions = {}): TraceTree {
  const filters = options.filters ?? noFilters;
  const expanded = options.expandedCalls ?? new Set<string>();
  const collapsed = options.collapsedNodeRuns ?? new Set<string>();
  const expandedTurns = options.expandedTurns ?? new Set<string>();
  const active = filtersActive(filters);
  // A turn's place among its node run's calls is a position in the unfiltered list: turns show while no filter is set.
  const whole = input.modelTurns ? turnsInOrder(input.modelTurns) : undefined;
  const turnPlaces = active ? {} : (input.turnPlaces ?? (whole ? placesOf(whole) : {}));
  const loadedTurn = input.loadedTurn ?? ((group: string, index: number) => whole?.get(group)?.[index]);
  const nodeRunById = new Map(input.nodeRuns.map((nodeRun) => [nodeRun.id, nodeRun]));
  const anchoredIds = new Set(input.anchored.map((anchor) => anchor.call.id));
  const subflows = new Map<string | null, NodeRunRecord[]>();
  const pendingTasks = new Map<string, NodeRunRecord[]>();
  for (const nodeRun of [...input.nodeRuns].sort((a, b) => compareText(a.startedAt, b.startedAt))) {
    const parent = nodeRun.parentToolCallId;
    if (parent === null || anchoredIds.has(parent)) push(subflows, parent, nodeRun);
    else push(pendingTasks, parent, nodeRun);
  }
  const waitsByGroup = new Map<string, TimelineWait[]>();
  const runWaits: TimelineWait[] = [];
  for (const wait of active ? [] : (input.waits ?? [])) {
    if (wait.nodeRunId && nodeRunById.has(wait.nodeRunId)) push(waitsByGroup, wait.nodeRunId, wait);
    else runWaits.push(wait);
  }
  for (const waits of waitsByGroup.values()) waits.sort((a, b) => (a.callsBefore ?? 0) - (b.callsBefore ?? 0) || a.sequence - b.sequence);
  const anchorsByGroup = new Map<string, AnchoredCall[]>();
  for (const anchor of [...input.anchored].sort((a, b) => a.before - b.before || a.call.sequence - b.call.sequence)) push(anchorsByGroup, anchor.group, anchor);

  const nodeIdOf = (call: CallSummary) => (call.nodeRunId ? nodeRunById.get(call.nodeRunId)?.nodeId : undefined) ?? call.caller;
  const nodeMatches = (nodeRun: NodeRunRecord) =>
    !filters.tool && (!filters.nodeId || nodeRun.nodeId === filters.nodeId) && (!filters.errorsOnly || isProblemStatus(nodeRun.status));

  // Visible: matches itself, or holds something that does. Memoized; `seen` stops a corrupt cycle.
  const visible = new Map<string, boolean>();
  const seen = new Set<string>();
  const subflowVisible = (callId: string): boolean => (subflows.get(callId) ?? []).some(nodeVisible);
  const nodeVisible = (nodeRun: NodeRunRecord): boolean => {
    if (!active) return true;
    if (visible.has(nodeRun.id)) return visible.get(nodeRun.id)!;
    if (seen.has(nodeRun.id)) return false;
    seen.add(nodeRun.id);
    const result = nodeMatches(nodeRun) || (input.groups[nodeRun.id] ?? 0) > 0 || (anchorsByGroup.get(nodeRun.id) ?? []).some((anchor) => subflowVisible(anchor.call.id));
    visible.set(nodeRun.id, result);
    return result;
  };

  const rows: TraceRow[] = [];
  const emitted = new Set<string>();
  const emitNode = (nodeRun: NodeRunRecord, depth: number) => {
    if (emitted.has(nodeRun.id)) return;
    emitted.add(nodeRun.id);
    const isCollapsed = collapsed.has(nodeRun.id);
    rows.push({ kind: "node", key: `node:${nodeRun.id}`, depth, nodeRun, callCount: input.callsByGroup[nodeRun.id] ?? 0, collapsed: isCollapsed });
    if (!isCollapsed) emitGroup(nodeRun.id, depth + 1);
  };
  const emitCall = (call: CallSummary, depth: number) => {
    if (emitted.has(call.id)) return;
    emitted.add(call.id);
    const subflow = subflows.get(call.id) ?? [];
    const isExpanded = expanded.has(call.id);
    rows.push({ kind: "call", key: `call:${call.id}`, depth, call, nodeId: nodeIdOf(call), expanded: isExpanded, subflowCount: subflow.length });
    if (isExpanded) rows.push({ kind: "detail", key: `detail:${call.id}`, depth: depth + 1, call });
    for (const nodeRun of subflow) if (nodeVisible(nodeRun)) emitNode(nodeRun, depth + 1);
  };
  // A group's filtered calls by position; a task call that only holds what matches goes where it falls among them.
  const emitGroup = (group: string, depth: number) => {
    const anchors = anchorsByGroup.get(group) ?? [];
    const matchingAt = new Map(anchors.filter((anchor) => anchor.matches).map((anchor) => [anchor.before, anchor.call]));
    const total = input.groups[group] ?? 0;
    const places = turnPlaces[group] ?? [];
    const waits = waitsByGroup.get(group) ?? [];
    let nextTurn = 0;
    let nextWait = 0;
    const emitTurnsUpTo = (position: number) => {
      emitOwnTurnsUpTo(position);
      // A wait follows the turn that asked for the call it holds.
      for (; nextWait < waits.length && (waits[nextWait].callsBefore ?? 0) <= position; nextWait++) rows.push({ kind: "wait", key: `wait:${waits[nextWait].key}`, depth, wait: waits[nextWait] });
    };
    const emitOwnTurnsUpTo = (position: number) => {
      for (; nextTurn < places.length && places[nextTurn] <= position; nextTurn++) {
        const turn = loadedTurn(group, nextTurn);
        if (!turn) {
          rows.push({ kind: "pending-turn", key: `pending-turn:${group}:${nextTurn}`, depth, group, index: nextTurn });
          continue;
        }
        const open = expandedTurns.has(turn.id);
        rows.push({ kind: "turn", key: `turn:${turn.id}`, depth, turn, expanded: open });
        if (open) rows.push({ kind: "turn-detail", key: `turn-detail:${turn.id}`, depth: depth + 1, turn });
      }
    };
    let next = 0;
    const emitAncestorsUpTo = (position: number) => {
      for (; next < anchors.length && anchors[next].before <= position; next++) {
        const anchor = anchors[next];
        if (!anchor.matches && subflowVisible(anchor.call.id)) emitCall(anchor.call, depth);
      }
    };
    for (let position = 0; position < total; position++) {
      emitTurnsUpTo(position);
      emitAncestorsUpTo(position);
      const call = input.loaded(group, position) ?? matchingAt.get(position);
      if (call) emitCall(call, depth);
      else rows.push({ kind: "pending", key: `pending:${group}:${position}`, depth, group, position });
    }
    emitAncestorsUpTo(Number.POSITIVE_INFINITY);
    emitTurnsUpTo(Number.POSITIVE_INFINITY);
  };

  const roots: RootEntry[] = [];
  for (const nodeRun of subflows.get(null) ?? []) {
    if (nodeVisible(nodeRun)) roots.push({ startedAt: nodeRun.startedAt, emit: () => emitNode(nodeRun, 0) });
  }
  for (const [parentToolCallId, nodeRuns] of pendingTasks) {
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
  for (const wait of runWaits) roots.push({ startedAt: wait.startedAt, emit: () => rows.push({ kind: "wait", key: `wait:${wait.key}`, depth: 0, wait }) });
  if ((input.groups[outsideGroup] ?? 0) > 0) {
    const startedAt = input.loaded(outsideGroup, 0)?.startedAt ?? "\uffff";
    roots.push({
      startedAt,
      emit: () => {
        rows.push({ kind: "group", key: "outside", depth: 0, label: "Calls with no node run (outside MCP hosts)", startedAt });
        emitGroup(outsideGroup, 1);
      },
    });
  }
  roots.sort((a, b) => compareText(a.startedAt, b.startedAt));
  for (const root of roots) root.emit();
  return { rows, matchingCalls: input.matchingCalls, totalCalls: input.totalCalls };
}

/**
 * The tree of a trace held whole (every call loaded): a test's, or a
 * script's. The page builds from pages instead (buildTraceRows).
 *
 * @example
 * const { rows } = buildTraceTree(trace, { filters: { nodeId: "", tool: "convertUnits", errorsOnly: false } });
 */
export function buildTraceTree(trace: Pick<RunTrace, "nodeRuns" | "toolCalls" | "timeline"> & { modelTurns?: readonly TraceTurn[] }, options: TraceTreeOptions = {}): TraceTree {
  const waits = (trace.timeline?.waits ?? []).map((wait) => (wait.nodeRunId && wait.callsBefore === undefined ? { ...wait, callsBefore: trace.toolCalls.filter((call) => call.nodeRunId === wait.nodeRunId && call.sequence < wait.sequence).length } : wait));
  return buildTraceRows({ ...wholeTraceInput(trace, options.filters ?? noFilters), modelTurns: trace.modelTurns, waits }, options);
}

/** A whole trace as the tree's input: the calls grouped, filtered and placed in write order. */
export function wholeTraceInput(trace: Pick<RunTrace, "nodeRuns" | "toolCalls">, filters: TraceFilters): TraceTreeInput {
  const nodeRunById = new Map(trace.nodeRuns.map((nodeRun) => [nodeRun.id, nodeRun]));
  const groupOf = (call: ToolCallRecord) => (call.nodeRunId && nodeRunById.has(call.nodeRunId) ? call.nodeRunId : outsideGroup);
  const nodeIdOf = (call: ToolCallRecord) => (call.nodeRunId ? nodeRunById.get(call.nodeRunId)?.nodeId : undefined) ?? call.caller;
  const matches = (call: ToolCallRecord) => (!filters.tool || call.tool === filters.tool) && (!filters.errorsOnly || call.isError) && (!filters.nodeId || nodeIdOf(call) === filters.nodeId);
  const byGroup = new Map<string, ToolCallRecord[]>();
  const callsByGroup: Record<string, number> = {};
  const parents = new Set(trace.nodeRuns.map((nodeRun) => nodeRun.parentToolCallId));
  const anchored: AnchoredCall[] = [];
  let matchingCalls = 0;
  for (const call of [...trace.toolCalls].sort((a, b) => a.sequence - b.sequence)) {
    const group = groupOf(call);
    callsByGroup[group] = (callsByGroup[group] ?? 0) + 1;
    const list = byGroup.get(group) ?? [];
    byGroup.set(group, list);
    const callMatches = matches(call);
    if (parents.has(call.id)) anchored.push({ call, group, before: list.length, matches: callMatches });
    if (callMatches) {
      list.push(call);
      matchingCalls += 1;
    }
  }
  const groups = Object.fromEntries([...byGroup].filter(([, list]) => list.length > 0).map(([group, list]) => [group, list.length]));
  return { nodeRuns: trace.nodeRuns, groups, callsByGroup, loaded: (group, position) => byGroup.get(group)?.[position], anchored, matchingCalls, totalCalls: trace.toolCalls.length };
}

/**
 * A run's turns by node run, each node run's in the tree's order: by their
 * place among the calls, then by sequence. The server pages turns in this
 * order, so a turn's number means the same on both sides.
 */
export function turnsInOrder(turns: readonly TraceTurn[]): Map<string, TraceTurn[]> {
  const byGroup = new Map<string, TraceTurn[]>();
  for (const turn of [...turns].sort((a, b) => (a.callsBefore ?? 0) - (b.callsBefore ?? 0) || a.sequence - b.sequence)) push(byGroup, turn.nodeRunId, turn);
  return byGroup;
}

/** Each node run's turns' places among its calls, from turns in order (see turnsInOrder). */
export function placesOf(byGroup: ReadonlyMap<string, readonly TraceTurn[]>): Record<string, number[]> {
  return Object.fromEntries([...byGroup].map(([group, turns]) => [group, turns.map((turn) => turn.callsBefore ?? 0)]));
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
