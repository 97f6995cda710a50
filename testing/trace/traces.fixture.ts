import type { NodeRunRecord, RunRecord, RunTrace, ToolCallRecord } from "../../lib/trace/run-trace";
import type { ModelTurnLike } from "../../lib/trace/run-steps";

/** TEST DOUBLE: builders of recorded traces for the pure trace tests (times in ms after a fixed instant). */

export const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();

export function runRecord(id: string, extra: Partial<RunRecord> = {}): RunRecord {
  return { id, workflowId: "demo", workflowName: "Demo", status: "completed", input: {}, outputs: {}, error: null, startedAt: at(0), endedAt: at(100), ...extra };
}

export function nodeRunRecord(id: string, nodeId: string, startMs: number, extra: Partial<NodeRunRecord> = {}): NodeRunRecord {
  return { id, runId: "r", nodeId, nodeType: nodeId, parentToolCallId: null, status: "completed", turns: 0, inputs: {}, outputs: {}, taintedOutputs: [], error: null, startedAt: at(startMs), endedAt: at(startMs + 10), ...extra };
}

export function toolCallRecord(id: string, nodeRunId: string | null, tool: string, startMs: number, sequence: number, extra: Partial<ToolCallRecord> = {}): ToolCallRecord {
  return { id, runId: "r", nodeRunId, tool, server: "s", caller: "agent", arguments: {}, result: null, error: null, isError: false, tainted: false, startedAt: at(startMs), durationMs: 5, inputTokens: null, outputTokens: null, sequence, ...extra };
}

export function modelTurn(id: string, nodeRunId: string, startMs: number, sequence: number, extra: Partial<ModelTurnLike> = {}): ModelTurnLike {
  return { id, nodeRunId, sequence, model: "gpt-test", text: "", startedAt: at(startMs), durationMs: 3, ...extra };
}

/** A run trace from its parts; taint entries empty. */
export function recordedTrace(run: RunRecord, nodeRuns: NodeRunRecord[], toolCalls: ToolCallRecord[], modelTurns?: ModelTurnLike[]): RunTrace & { modelTurns?: ModelTurnLike[] } {
  return { run, nodeRuns, toolCalls, taintRecords: [], readAt: at(1000), ...(modelTurns ? { modelTurns } : {}) };
}
