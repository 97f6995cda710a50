/**
 * What a run reports as it goes: noun-verb events with start and end. The
 * engine writes them to a sink and knows nothing of where they go (the
 * database, the CLI's memory, a test).
 */

export type RunStatus = "running" | "completed" | "failed" | "cancelled";
export type NodeStatus = "running" | "completed" | "max_turns" | "stuck" | "failed" | "cancelled";

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
}

export interface RunEndEvent {
  runId: string;
  status: RunStatus;
  outputs: Record<string, unknown>;
  error: string | null;
  endedAt: string;
}

/** Where a run's events go. Each method may be async; the engine awaits it so rows are never lost. */
export interface RunSink {
  runStart(event: RunStartEvent): void | Promise<void>;
  nodeStart(event: NodeStartEvent): void | Promise<void>;
  toolCall(row: ToolCallRow): void | Promise<void>;
  nodeEnd(event: NodeEndEvent): void | Promise<void>;
  runEnd(event: RunEndEvent): void | Promise<void>;
}
