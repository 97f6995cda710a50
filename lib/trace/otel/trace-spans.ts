import type { RunTrace } from "../run-trace";
import type { ModelTurnLike } from "../run-steps";
import type { SpanRecord } from "./genai-spans";
import { SpanRecorder, type SpanRecorderOptions } from "./span-recorder";

/**
 * A recorded run's spans: its rows replayed through the same recorder the
 * live export uses, so a run exported later has the very spans (ids,
 * names, attributes) it had live. A run still running has no end yet:
 * the caller refuses it (spans are whole or not at all).
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
  if (run.endedAt && run.status !== "running" && run.status !== "queued") recorder.runEnd({ runId: run.id, status: run.status, outputs: run.outputs, error: run.error, endedAt: run.endedAt });
  return spans;
}
