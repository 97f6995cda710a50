import type { RunTrace } from "../run-trace";
import type { ModelTurnLike } from "../run-steps";
import { type SpanRecord, waitSpan } from "./genai-spans";
import { spanIdOf, traceIdOfRun } from "./trace-context";
import { SpanRecorder, type SpanRecorderOptions } from "./span-recorder";

/**
 * A recorded run's spans: its rows replayed through the same recorder the
 * live export uses, so a run exported later has the very spans (ids,
 * names, attributes) it had live. A run still running has no end yet:
 * the caller refuses it (spans are whole or not at all). The rows are
 * placed by the run's timeline when it has one (a fork's replayed steps
 * where it replayed them), and its waits are spans of their own.
 */
export function traceSpans(trace: RunTrace & { modelTurns?: readonly ModelTurnLike[] }, options: Omit<SpanRecorderOptions, "emit">): SpanRecord[] {
  const spans: SpanRecord[] = [];
  const { run } = trace;
  const recorder = new SpanRecorder({ origin: run.origin ?? null, ...options, emit: (span) => spans.push(span) });
  recorder.runStart({ runId: run.id, workflowId: run.workflowId, input: run.input, startedAt: run.startedAt });
  for (const nodeRun of trace.nodeRuns) {
    recorder.nodeStart({ runId: run.id, nodeRunId: nodeRun.id, nodeId: nodeRun.nodeId, nodeType: nodeRun.nodeType, parentToolCallId: nodeRun.parentToolCallId, inputs: nodeRun.inputs, startedAt: nodeRun.startedAt });
  }
  for (const record of trace.taintRecords) recorder.taintRecord(record);
  for (const turn of trace.modelTurns ?? []) recorder.modelTurn(run.id, turn);
  for (const call of trace.toolCalls) {
    const { sequence: _sequence, ...row } = call;
    recorder.toolCall(row);
  }
  for (const nodeRun of trace.nodeRuns) {
    if (!nodeRun.endedAt) continue;
    recorder.nodeEnd({ runId: run.id, nodeRunId: nodeRun.id, status: nodeRun.status, outputs: nodeRun.outputs, error: nodeRun.error, turns: nodeRun.turns, taintedOutputs: nodeRun.taintedOutputs, endedAt: nodeRun.endedAt });
  }
  // The waits of the run's timeline: spans of their own, under the node run that waited or the run.
  const traceId = options.remoteParent?.traceId ?? traceIdOfRun(run.id);
  for (const wait of trace.timeline?.waits ?? []) {
    const parent = wait.nodeRunId && trace.nodeRuns.some((nodeRun) => nodeRun.id === wait.nodeRunId) ? spanIdOf({ kind: "node", nodeRunId: wait.nodeRunId }) : spanIdOf({ kind: "run", runId: run.id });
    spans.push(waitSpan({ traceId, spanId: spanIdOf({ kind: "wait", runId: run.id, key: wait.key }), parentSpanId: parent }, wait, run.endedAt ?? trace.readAt));
  }
  if (run.endedAt && run.status !== "running" && run.status !== "queued") recorder.runEnd({ runId: run.id, status: run.status, outputs: run.outputs, error: run.error, endedAt: run.endedAt });
  return spans;
}
