import type { RunTimeline, TaintSource } from "./trace-types";
import type { RunTotals } from "./run-totals";
import type { NodeRunRecord, RunRecord, ToolCallRecord, TraceTurn } from "./run-trace";

/**
 * The trace page's data as it travels: a small first answer (the run, its
 * node runs, totals the database counted, the first calls of each node run,
 * a summary of the taint registry) and pages of calls fetched as the person
 * scrolls or expands. Plain data, so it crosses from server to browser.
 *
 * Calls are grouped by node run ("" holds calls with no node run, from
 * outside MCP hosts) and kept in write order (`sequence`) inside a group.
 * Rows are only ever added at the end of that order, so a position, once
 * seen, keeps its call while the run still writes: pages never overlap and
 * never skip a row.
 */

/** "" means any. */
export interface TraceFilters {
  nodeId: string;
  tool: string;
  errorsOnly: boolean;
}

export const noFilters: TraceFilters = { nodeId: "", tool: "", errorsOnly: false };

export function filtersActive(filters: TraceFilters): boolean {
  return filters.nodeId !== "" || filters.tool !== "" || filters.errorsOnly;
}

/** A stable text for a set of filters (a cache key, a query string). */
export function filtersKey(filters: TraceFilters): string {
  return new URLSearchParams({ ...(filters.nodeId ? { node: filters.nodeId } : {}), ...(filters.tool ? { tool: filters.tool } : {}), ...(filters.errorsOnly ? { errors: "1" } : {}) }).toString();
}

/** Filters from a query string (the inverse of filtersKey). */
export function filtersFrom(params: URLSearchParams): TraceFilters {
  return { nodeId: params.get("node") ?? "", tool: params.get("tool") ?? "", errorsOnly: params.get("errors") === "1" };
}

/** A tool call as its row shows it: no arguments or result (fetched when the row is opened), its error cut short. */
export type CallSummary = Omit<ToolCallRecord, "arguments" | "result">;

/** The group of calls with no node run. */
export const outsideGroup = "";

/** Per-tool totals, counted by the database. */
export interface ToolTotal {
  tool: string;
  calls: number;
  errors: number;
  durationMs: number;
  inputTokens: number;
  outputTokens: number;
}

/** What the database counted over every call of the run (no filter). */
export interface TraceAggregates {
  calls: number;
  errors: number;
  tainted: number;
  inputTokens: number;
  outputTokens: number;
  tools: ToolTotal[];
  /** Calls per group (node run id, or "" for calls with no node run). */
  callsByGroup: Record<string, number>;
  /** The waterfall's extent: the first call's start and the latest call's end (ISO), null with no call. */
  firstCallAt: string | null;
  lastCallEndAt: string | null;
}

/** A call shown because it started a sub-flow: where it sits among the calls of its group that pass the filters. */
export interface AnchoredCall {
  call: CallSummary;
  group: string;
  /** How many calls of its group that pass the filters come before it. */
  before: number;
  /** Whether it passes the filters itself (then it is the call at position `before`). */
  matches: boolean;
}

export interface CallPage {
  group: string;
  /** The position (within its group, under the filters) of the first call. */
  offset: number;
  calls: CallSummary[];
  /** The cursor of the next page; null when this page reached the last call written so far. */
  next: string | null;
}

export interface TaintOrigin {
  /** The tool call's trace row id. */
  callId: string;
  /** From the registry's tool-result entry, or the call's row; null while neither is known yet. */
  server: string | null;
  tool: string | null;
  source: TaintSource | null;
  /** Whether the call's row is in the trace (and so can be shown). */
  inTrace: boolean;
}

/** Where external content came in: the tool-result entries of one tool, counted. */
export interface TaintSourceTotal {
  server: string;
  tool: string;
  source: TaintSource;
  calls: number;
  /** The first such call, to open in the trace. */
  first: TaintOrigin;
}

/** A memory key or node output that took in external content, with its first origins; the rest are paged. */
export interface TaintTargetSummary {
  id: string;
  kind: "memory-key" | "output";
  /** The memory key, or `node.output`. */
  label: string;
  nodeId: string;
  nodeRunId: string;
  originCount: number;
  firstOrigins: TaintOrigin[];
}

export interface TaintOverview {
  sources: TaintSourceTotal[];
  memoryKeys: TaintTargetSummary[];
  outputs: TaintTargetSummary[];
  /** How many of each there are (the lists above stop at a cap). */
  memoryKeyCount: number;
  outputCount: number;
}

export interface TaintOriginPage {
  origins: TaintOrigin[];
  next: string | null;
}

/** The first answer of the trace page (and of each poll while the run runs). */
export interface TraceOverview {
  run: RunRecord;
  nodeRuns: NodeRunRecord[];
  /** When the server read this (ISO): the "now" of a run still running, the same on server and browser. */
  readAt: string;
  /** The run's write count when read: a live poll asks for what changed after it (TraceChanges). */
  cursor?: string;
  aggregates: TraceAggregates;
  /** The filters the rest of this answer is under. */
  filters: TraceFilters;
  /** Calls that pass the filters. */
  matchingCalls: number;
  /** Calls per group that pass the filters. */
  groups: Record<string, number>;
  /** Every call that started a sub-flow, placed among the filtered calls. */
  anchored: AnchoredCall[];
  /** The first page of each group, under the filters. */
  pages: CallPage[];
  taint: TaintOverview;
  /** The run's model turns, tokens and cost (from its journalled turn rows when it has them). */
  totals?: Pick<RunTotals, "turns" | "inputTokens" | "outputTokens" | "costUsd">;
  /**
   * Each node run's model turns, in the tree's order: every turn's place
   * among its node run's calls (how many calls had returned when it
   * started). The tree has a row for each; the turns themselves come in
   * pages (`turnPages`, then GET …/turns as rows scroll into view).
   */
  turnPlaces?: Record<string, number[]>;
  /** The first turns of each node run. */
  turnPages?: TurnPage[];
  /** The journal key of each step node's result, by node run id: where "Fork from here" forks a step node. */
  stepKeys?: Record<string, string>;
  /** How the run's time was spent: the node runs, calls and turns of this answer and of every page are placed by it. */
  timeline?: RunTimeline;
}

/** A page of one node run's model turns: `turns[i]` is its turn number `offset + i` (0-based, in the order of `turnPlaces`). */
export interface TurnPage {
  group: string;
  offset: number;
  turns: TraceTurn[];
}

/** One call in full (arguments, result, error), and where it sits in its group with no filter. */
export interface CallDetail {
  call: ToolCallRecord;
  group: string;
  position: number;
}

/** A live poll's place in a run: its write count (calls, journal steps, taint entries) and its count of node-run changes. */
export interface TraceCursor {
  rows: number;
  nodeRuns: number;
}

/**
 * @example
 * cursorText({ rows: 120, nodeRuns: 3 }) // "120.3"
 */
export function cursorText(cursor: TraceCursor): string {
  return `${cursor.rows}.${cursor.nodeRuns}`;
}

/** A cursor from its text (cursorText); null when the text is not one. */
export function parseCursor(text: string): TraceCursor | null {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(text);
  return match ? { rows: Number(match[1]), nodeRuns: Number(match[2]) } : null;
}

/**
 * What changed in a run's trace after a cursor (GET /api/runs/<id>?since=<cursor>):
 * the run page's live poll, merged into the first answer it holds
 * (mergeTraceChanges). Rows are only ever added at the end of their group,
 * so each new call comes at its position and each new turn at its number;
 * a node run that started or ended comes whole.
 */
export interface TraceChanges {
  run: RunRecord;
  readAt: string;
  /** The cursor asked after, and the one to ask after next. */
  since: string;
  cursor: string;
  filters: TraceFilters;
  /** Node runs that started or ended after the cursor, placed by the timeline. */
  nodeRuns: NodeRunRecord[];
  aggregates: TraceAggregates;
  totals?: TraceOverview["totals"];
  groups: Record<string, number>;
  matchingCalls: number;
  /** The calls written after the cursor that pass the filters, at their positions (the first of them, when many were). */
  pages: CallPage[];
  /** Calls that started a sub-flow, written after the cursor. */
  anchored: AnchoredCall[];
  /** Each node run's new turns: their places among its calls, from turn number `from` on. */
  turnPlaces: Record<string, { from: number; places: number[] }>;
  /** The journal keys of step nodes' results written after the cursor. */
  stepKeys: Record<string, string>;
  /** The taint summary, when an entry was written after the cursor; null when it is unchanged. */
  taint: TaintOverview | null;
  /** The run's frame and waits; `nodeRuns` holds the changed node runs' spans only. */
  timeline: RunTimeline;
}

/**
 * The first answer a page holds, brought up to date by a poll's changes.
 *
 * @example
 * mergeTraceChanges(overview, changes).cursor // changes.cursor
 */
export function mergeTraceChanges(overview: TraceOverview, changes: TraceChanges): TraceOverview {
  const nodeRuns = new Map(overview.nodeRuns.map((nodeRun) => [nodeRun.id, nodeRun]));
  for (const nodeRun of changes.nodeRuns) nodeRuns.set(nodeRun.id, nodeRun);
  const turnPlaces = { ...(overview.turnPlaces ?? {}) };
  for (const [group, { from, places }] of Object.entries(changes.turnPlaces)) turnPlaces[group] = [...(turnPlaces[group] ?? []).slice(0, from), ...places];
  const anchoredIds = new Set(overview.anchored.map((anchor) => anchor.call.id));
  const byStart = (a: NodeRunRecord, b: NodeRunRecord) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    ...overview,
    run: changes.run,
    readAt: changes.readAt,
    cursor: changes.cursor,
    nodeRuns: [...nodeRuns.values()].sort(byStart),
    aggregates: changes.aggregates,
    totals: changes.totals,
    groups: changes.groups,
    matchingCalls: changes.matchingCalls,
    pages: changes.pages,
    anchored: [...overview.anchored, ...changes.anchored.filter((anchor) => !anchoredIds.has(anchor.call.id))],
    taint: changes.taint ?? overview.taint,
    turnPlaces,
    turnPages: [],
    stepKeys: { ...(overview.stepKeys ?? {}), ...changes.stepKeys },
    timeline: { ...changes.timeline, nodeRuns: { ...(overview.timeline?.nodeRuns ?? {}), ...changes.timeline.nodeRuns } },
  };
}
