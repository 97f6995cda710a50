import type { ModelTurnRow } from "./model-turns";
import type { AttentionRequest } from "./run-trace";
import type { NodeStatus, RunStatus, TaintRecord, ToolCallRow } from "./trace-types";

export type { NodeStatus, RunStatus, TaintRecord, TaintSource, TaintedMemoryKey, TaintedOutput, TaintedToolResult, ToolCallRow } from "./trace-types";

/**
 * What a run reports as it goes: noun-verb events with start and end. The
 * engine writes them to a sink and knows nothing of where they go (the
 * database, the CLI's memory, a test).
 */


export interface RunStartEvent {
  runId: string;
  workflowId: string | null;
  input: Record<string, unknown>;
  startedAt: string;
}

export interface NodeStartEvent {
  runId: string;
  nodeRunId: string;
  nodeId: string;
  nodeType: string;
  /** Set when the node runs inside a Task started by this tool call. */
  parentToolCallId: string | null;
  inputs: Record<string, unknown>;
  startedAt: string;
}

export interface NodeEndEvent {
  runId: string;
  nodeRunId: string;
  status: NodeStatus;
  outputs: Record<string, unknown>;
  error: string | null;
  turns: number;
  /**
   * The outputs (by name) whose values came from outside content, per the
   * run's taint registry; for End and Task End, `result`. The engine always
   * sets it; optional so sinks and fixtures written before taint tracking
   * still build.
   */
  taintedOutputs?: string[];
  endedAt: string;
}


export interface RunEndEvent {
  runId: string;
  /** needs-attention is no end: the run waits for a person and resumes after their choice. */
  status: Exclude<RunStatus, "queued" | "running">;
  outputs: Record<string, unknown>;
  error: string | null;
  endedAt: string;
  /** For needs-attention: the call waiting for a person. */
  attention?: AttentionRequest;
}


/** Where a run's events go. Each method may be async; the engine awaits it so rows are never lost. */
export interface RunSink {
  runStart(event: RunStartEvent): void | Promise<void>;
  nodeStart(event: NodeStartEvent): void | Promise<void>;
  toolCall(row: ToolCallRow): void | Promise<void>;
  nodeEnd(event: NodeEndEvent): void | Promise<void>;
  /** A model turn, once the journal holds it (the row lives in the journal: a sink that stores the journal need not keep it). Optional. */
  modelTurn?(turn: ModelTurnRow): void | Promise<void>;
  /** An entry of the run's taint registry. Optional: a sink that does not store taint may leave it out. */
  taintRecord?(record: TaintRecord): void | Promise<void>;
  runEnd(event: RunEndEvent): void | Promise<void>;
}
