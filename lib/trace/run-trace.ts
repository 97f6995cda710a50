import type { NodeStatus, RunStatus, ToolCallRow } from "./run-events";

/**
 * A recorded run as plain data (JSON parsed, times as ISO strings): what the
 * database layer reads and what the trace page and GET /api/runs/[id] show.
 * Plain so it crosses from server to browser unchanged.
 */

export interface RunRecord {
  id: string;
  workflowId: string | null;
  /** The name in the document that ran (frozen at start), not the workflow's current name. */
  workflowName: string;
  status: RunStatus;
  input: Record<string, unknown>;
  outputs: Record<string, unknown>;
  error: string | null;
  startedAt: string;
  endedAt: string | null;
}

export interface NodeRunRecord {
  id: string;
  runId: string;
  nodeId: string;
  nodeType: string;
  /** Set when the node ran inside a Task: the id of the tool call that started it. */
  parentToolCallId: string | null;
  status: NodeStatus;
  turns: number;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  error: string | null;
  startedAt: string;
  endedAt: string | null;
}

/** The trace row as written, plus the order it was written in within its run. */
export interface ToolCallRecord extends ToolCallRow {
  sequence: number;
}

export interface RunTrace {
  run: RunRecord;
  nodeRuns: NodeRunRecord[];
  toolCalls: ToolCallRecord[];
  /** When the server read this (ISO): the "now" of a run still running, the same on server and browser. */
  readAt: string;
}

/** A run as a list shows it. */
export interface RunSummary {
  id: string;
  workflowId: string | null;
  workflowName: string;
  status: RunStatus;
  error: string | null;
  startedAt: string;
  endedAt: string | null;
  toolCallCount: number;
}

export const runStatuses: readonly RunStatus[] = ["running", "completed", "failed", "cancelled"];
export const nodeStatuses: readonly NodeStatus[] = ["running", "completed", "max_turns", "stuck", "failed", "cancelled"];
