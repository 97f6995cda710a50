import type { NodeRun, Run, TaintRecord as TaintRow, ToolCall } from "../generated/prisma/client";
import { type NodeStatus, type RunStatus, type TaintSource, nodeStatuses, runStatuses, type NodeRunRecord, type RunRecord, type TaintRecordEntry, type ToolCallRecord } from "../trace";
import { parseRunOrigin, stableId } from "../run-model";
import { readForkChange } from "../run-model/fork-change";
import { fromJsonText, objectFromJsonText } from "./json-text";

/** Maps the rows of a run onto the plain trace types (JSON parsed, times as ISO text). */

export function toRunRecord(row: Run): RunRecord {
  const { status, error } = statusOf(row, runStatuses);
  return {
    id: row.id,
    workflowId: row.workflowId,
    workflowName: documentName(row.document),
    status,
    input: objectFromJsonText(row.input),
    outputs: objectFromJsonText(row.outputs),
    error,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    ...(row.workerId ? { workerId: row.workerId } : {}),
    ...(row.resumeCount > 0 ? { resumeCount: row.resumeCount } : {}),
    ...(row.attention ? { attention: attentionOf(row.id, row.attention) } : {}),
    ...(row.forkedFromRunId ? { forkedFrom: { runId: row.forkedFromRunId, at: row.forkedAtStep ?? "", change: readForkChange(row.forkChange) } } : {}),
    ...(row.origin ? { origin: parseRunOrigin(row.origin) } : {}),
  };
}

/** The Run row's `attention` column: the call waiting for a person, or null (also for text that is not one). */
function attentionOf(runId: string, text: string | null): RunRecord["attention"] {
  const value = text ? fromJsonText(text) : null;
  if (!value || typeof value !== "object" || typeof (value as { key?: unknown }).key !== "string") return null;
  const request = value as NonNullable<RunRecord["attention"]>;
  return { ...request, callId: stableId(runId, request.key) };
}

export function toNodeRunRecord(row: NodeRun): NodeRunRecord {
  const { status, error } = statusOf(row, nodeStatuses);
  return {
    id: row.id,
    runId: row.runId,
    nodeId: row.nodeId,
    nodeType: row.nodeType,
    parentToolCallId: row.parentToolCallId,
    status,
    turns: row.turns,
    inputs: objectFromJsonText(row.inputs),
    outputs: objectFromJsonText(row.outputs),
    taintedOutputs: stringsFromJsonText(row.taintedOutputs),
    error,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

/**
 * A TaintRecord row as the event it recorded. A row of an unknown kind (a
 * newer version's) reads as null and is left out rather than mis-shown.
 */
export function toTaintRecordEntry(row: TaintRow): TaintRecordEntry | null {
  const common = { id: row.id, sequence: row.sequence, runId: row.runId, nodeId: row.nodeId, nodeRunId: row.nodeRunId, recordedAt: row.recordedAt.toISOString() };
  switch (row.kind) {
    case "tool-result":
      return { ...common, kind: "tool-result", source: (row.source === "custom_tool" ? "custom_tool" : "mcp") satisfies TaintSource, server: row.server ?? "", tool: row.tool ?? "", toolCallId: row.toolCallId ?? "" };
    case "memory-key":
      return { ...common, kind: "memory-key", key: row.key ?? "", toolCallId: row.toolCallId ?? "", origins: stringsFromJsonText(row.origins) };
    case "output":
      return { ...common, kind: "output", output: row.output ?? "", origins: stringsFromJsonText(row.origins) };
    default:
      return null;
  }
}

export function toToolCallRecord(row: ToolCall): ToolCallRecord {
  return {
    id: row.id,
    runId: row.runId,
    nodeRunId: row.nodeRunId,
    tool: row.tool,
    server: row.server,
    caller: row.caller,
    arguments: fromJsonText(row.arguments),
    result: fromJsonText(row.result),
    error: row.error,
    isError: row.isError,
    tainted: row.tainted,
    startedAt: row.startedAt.toISOString(),
    durationMs: row.durationMs,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    sequence: row.sequence,
    ...(row.stepKey ? { stepKey: row.stepKey } : {}),
    ...(row.attempt > 0 ? { attempt: row.attempt } : {}),
  };
}

/** The workflow's name as it was when the run started. */
export function documentName(document: string): string {
  const parsed = fromJsonText(document);
  const name = typeof parsed === "object" && parsed !== null && "name" in parsed ? (parsed as { name: unknown }).name : undefined;
  return typeof name === "string" && name.trim() ? name : "Untitled workflow";
}

/** A JSON column holding a list of names; anything else reads as empty. */
function stringsFromJsonText(text: string): string[] {
  const value = fromJsonText(text);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/**
 * A row's status and error as the trace shows them: a status written by a
 * newer or older version reads as failed, its error saying what it was
 * (shown, not hidden).
 */
export function statusOf<S extends RunStatus | NodeStatus>(row: { status: string; error: string | null }, known: readonly S[]): { status: S | "failed"; error: string | null } {
  if ((known as readonly string[]).includes(row.status)) return { status: row.status as S, error: row.error };
  return { status: "failed", error: `recorded with the unknown status "${row.status}"${row.error ? `: ${row.error}` : ""}` };
}
