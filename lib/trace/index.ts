/**
 * lib/trace's public surface: run events and the sink they go to, trace rows
 * and pages, redaction, taint, run diffs and the OpenTelemetry export. For
 * server code: the export loads Node modules. Client components import
 * `./browser`, the part safe in a browser bundle, which this re-exports.
 */
export { buildTraceRows, filtersKey, foldSameSteps, groupRunsByFork, jsonChanges, mergeTraceChanges, noFilters, runStage, stepLabel } from "./browser";
export type { AttentionRequest, CallDetail, CallPage, CallSummary, FieldChanges, JsonChange, NodeStatus, ReplayOrigin, RunDiff, RunProgress, RunProgressCall, RunRecord, RunSide, RunStage, RunStatus, RunStep, RunSummary, RunTotals, StepPair, TaintOrigin, TaintOriginPage, TaintOverview, TaintTargetSummary, TextPart, ToolCallRecord, ToolTotal, TraceChanges, TraceFilters, TraceOverview, TraceRow, TraceTurn, TurnPage, WaitingApproval } from "./browser";
// Run events, the trace they make, and the sinks they go to.
export type { NodeEndEvent, NodeStartEvent, RunEndEvent, RunSink, RunStartEvent, TaintRecord, TaintSource, ToolCallRow } from "./run-events";
export { nodeStatuses, runStatuses, type ApprovalRequest, type NodeRunRecord, type QuestionRequest, type RunOutline, type RunTrace, type TaintRecordEntry } from "./run-trace";
export type { ModelTurnLike, RunTimeline } from "./trace-types";
export { MemorySink } from "./memory-sink";
export { redactingSink, redactSecrets } from "./redact";
export { liveRedactor } from "./live-redaction";
export { TaintRegistry } from "./taint-registry";
// Reading a trace: pages, model turns, the timeline.
export { cursorText, filtersActive, filtersFrom, outsideGroup, parseCursor, type AnchoredCall, type TraceAggregates, type TraceCursor } from "./trace-page";
export { modelTurnsFromJournal, storedTurnRow, turnCost, turnRowOf, type ModelContext, type ModelPrices, type ModelTurnRow, type StoredTurnRow } from "./model-turns";
export { buildRunTimeline, placeNodeRun, placeStep } from "./run-timeline";
// Comparing runs.
export { compareRuns, type CompareOutcome } from "./compare-runs";
export { diffRuns, type DiffSource } from "./run-diff";
export { describeDiff } from "./run-diff-text";
export { jsonEqual } from "./json-changes";
// OpenTelemetry.
export { flushOtelExport, otelExportFromEnv, withOtelExport } from "./otel/live-export";
export { traceparentOfNodeRun } from "./otel/node-run-spans";
export { otlpJson } from "./otel/otlp-json";
export { parseTraceparent, type RemoteParent } from "./otel/trace-context";
export { traceSpans } from "./otel/trace-spans";
