import type { ModelTurnRow } from "./model-turns";
import type { AttentionRequest } from "./run-trace";

/**
 * What a run reports as it goes: noun-verb events with start and end. The
 * engine writes them to a sink and knows nothing of where they go (the
 * database, the CLI's memory, a test).
 */

/**
 * queued: written, waiting for a worker; needs-attention: stopped at a call
 * a person must decide about (it holds no process while it waits).
 */
export type RunStatus = "queued" | "running" | "needs-attention" | "completed" | "failed" | "cancelled";
/** waiting: stopped with its run (which needs attention) and picked up again when the run resumes. */
export type NodeStatus = "running" | "completed" | "max_turns" | "stuck" | "failed" | "cancelled" | "needs-attention" | "waiting";

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

/** The trace row: exactly one per tool call, written by the side that answered it. */
export interface ToolCallRow {
  id: string;
  runId: string;
  /** The node run that called; null for an outside MCP host's call. */
  nodeRunId: string | null;
  tool: string;
  /** The node id or server id that answered. */
  server: string;
  /** Who called: a node id, or `mcp-host:<client name>`. */
  caller: string;
  arguments: unknown;
  result: unknown;
  error: string | null;
  isError: boolean;
  tainted: boolean;
  startedAt: string;
  durationMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
  /** The call's journal key when the engine journals it: this row is then the call's journal entry. */
  stepKey?: string | null;
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

/** Where tainted content came from: an MCP tool, or a custom tool declared `taints: true`. */
export type TaintSource = "mcp" | "custom_tool";

/** A tool result that brought outside content into the run. `toolCallId` is its trace row's id. */
export interface TaintedToolResult {
  kind: "tool-result";
  runId: string;
  source: TaintSource;
  /** The server (registry id or service node id) or "custom". */
  server: string;
  tool: string;
  /** The node that called, and its node run. */
  nodeId: string;
  nodeRunId: string;
  toolCallId: string;
  recordedAt: string;
}

/** A memory key written (save_to_memory) by a node run that had taken in tainted content. */
export interface TaintedMemoryKey {
  kind: "memory-key";
  runId: string;
  key: string;
  nodeId: string;
  nodeRunId: string;
  /** The save_to_memory call's trace row. */
  toolCallId: string;
  /** The tainted tool results (trace row ids) that reached the writer. */
  origins: string[];
  recordedAt: string;
}

/** A node output set by a node run that had taken in tainted content. */
export interface TaintedOutput {
  kind: "output";
  runId: string;
  nodeId: string;
  nodeRunId: string;
  output: string;
  origins: string[];
  recordedAt: string;
}

/** One entry of the run's taint registry, as the `taint-record` event carries it. */
export type TaintRecord = TaintedToolResult | TaintedMemoryKey | TaintedOutput;

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
