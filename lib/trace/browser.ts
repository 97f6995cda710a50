/**
 * The part of lib/trace's public surface that client components load: trace
 * pages, rows and filters, run progress, diffs and groups. Safe in a browser
 * bundle: nothing here imports a Node module (lib/trace/index.ts, which
 * re-exports all of it, also holds the OpenTelemetry export, which does).
 */
export { foldSameSteps } from "./fold-steps";
export { jsonChanges, type JsonChange, type TextPart } from "./json-changes";
export { stepLabel } from "./run-diff-text";
export type { FieldChanges, RunDiff, RunSide, StepPair } from "./run-diff";
export type { NodeStatus, RunStatus } from "./run-events";
export { groupRunsByFork } from "./run-groups";
export { runStage, type RunProgress, type RunProgressCall, type RunStage } from "./run-progress";
export type { RunStep } from "./run-steps";
export type { RunTotals } from "./run-totals";
export type { AttentionRequest, RunRecord, RunSummary, ToolCallRecord } from "./run-trace";
export {
  filtersKey,
  mergeTraceChanges,
  noFilters,
  type CallDetail,
  type CallPage,
  type CallSummary,
  type TaintOrigin,
  type TaintOriginPage,
  type TaintOverview,
  type TaintTargetSummary,
  type ToolTotal,
  type TraceChanges,
  type TraceFilters,
  type TraceOverview,
  type TurnPage,
} from "./trace-page";
export { buildTraceRows, type TraceRow, type TraceTurn } from "./trace-tree";
export type { ReplayOrigin } from "./trace-types";
export type { WaitingApproval } from "./waiting-approval";
