import type { NodeRun, Run, ToolCall } from "../generated/prisma/client";
import type { NodeStatus, RunStatus } from "../trace/run-events";
import { nodeStatuses, runStatuses, type NodeRunRecord, type RunRecord, type ToolCallRecord } from "../trace/run-trace";
import { fromJsonText, objectFromJsonText } from "./json-text";

/** Maps the rows of a run onto the plain trace types (JSON parsed, times as ISO text). */

export function toRunRecord(row: Run): RunRecord {
  const status = knownStatus(row.status, runStatuses);
  return {
    id: row.id,
    workflowId: row.workflowId,
    workflowName: documentName(row.document),
    status: status ?? "failed",
    input: objectFromJsonText(row.input),
    outputs: objectFromJsonText(row.outputs),
    error: status ? row.error : unknownStatusError(row.status, row.error),
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

export function toNodeRunRecord(row: NodeRun): NodeRunRecord {
  const status = knownStatus(row.status, nodeStatuses);
  return {
    id: row.id,
    runId: row.runId,
    nodeId: row.nodeId,
    nodeType: row.nodeType,
    parentToolCallId: row.parentToolCallId,
    status: status ?? "failed",
    turns: row.turns,
    inputs: objectFromJsonText(row.inputs),
    outputs: objectFromJsonText(row.outputs),
    error: status ? row.error : unknownStatusError(row.status, row.error),
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  };
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
  };
}

/** The workflow's name as it was when the run started. */
export function documentName(document: string): string {
  const parsed = fromJsonText(document);
  const name = typeof parsed === "object" && parsed !== null && "name" in parsed ? (parsed as { name: unknown }).name : undefined;
  return typeof name === "string" && name.trim() ? name : "Untitled workflow";
}

function knownStatus<S extends RunStatus | NodeStatus>(value: string, known: readonly S[]): S | null {
  return (known as readonly string[]).includes(value) ? (value as S) : null;
}

// A status written by a newer or older version is shown, not hidden.
function unknownStatusError(status: string, error: string | null): string {
  return `recorded with the unknown status "${status}"${error ? `: ${error}` : ""}`;
}
