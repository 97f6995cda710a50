/**
 * The trace's plain types that every other module of lib/trace shares: what
 * a run and its rows report, and the shape of a model turn. This module
 * imports nothing of ours, so the modules that build on it form no circle.
 */

/**
 * queued: written, waiting for a worker; needs-attention: stopped at a call
 * a person must decide about (it holds no process while it waits).
 */
export type RunStatus = "queued" | "running" | "needs-attention" | "completed" | "failed" | "cancelled";
/** waiting: stopped with its run (which needs attention) and picked up again when the run resumes. */
export type NodeStatus = "running" | "completed" | "max_turns" | "stuck" | "failed" | "cancelled" | "needs-attention" | "waiting";

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

/** The shape a model-turn row must have to become a step (what the durable-runs journal will record). */
export interface ModelTurnLike {
  id: string;
  nodeRunId: string;
  /** Orders turns among the node run's tool calls (the same numbering as ToolCallRecord.sequence). */
  sequence: number;
  model: string;
  provider?: string | null;
  text: string;
  toolCalls?: unknown[];
  finishReason?: string | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  costUsd?: number | null;
  startedAt: string;
  durationMs: number;
  /** How many of the node run's tool calls had returned when the turn started: places it exactly among them (else by start time). */
  callsBefore?: number;
  /** Placed by the run's timeline: copied from a fork's parent and replayed (startedAt is then when the fork replayed it, durationMs 0). */
  replayedFrom?: ReplayOrigin;
}

/**
 * A stretch of a run spent waiting, not working: for a worker (queued, or
 * queued again after a person decided), for a person (an approval, an
 * answer to a tool's question), or for a worker to take the run up again
 * after its process stopped (a crash, a lost lease).
 */
export interface TimelineWait {
  /** Stable within the run: `queue`, `queue after <call key>`, `resume <n>`, or the journal key of the wait. */
  key: string;
  kind: "queue" | "approval" | "question" | "resume";
  /** The node run that waited (an approval or a question); null for the whole run. */
  nodeRunId: string | null;
  /** The journal key of the call that asked (an approval or a question). */
  callKey: string | null;
  /** Orders the wait among its node run's calls and turns (the run's write order); 0 for a run's wait. */
  sequence: number;
  /** Its place among its node run's calls: how many were written before it (set by the trace page's read). */
  callsBefore?: number;
  startedAt: string;
  /** null: still waiting. */
  endedAt: string | null;
  /** Who or what ended it: a person's name, `timeout`, `a worker`; null while it waits. */
  endedBy: string | null;
  /** What it was, in words: "Waited for approval of mail/send_email: approved by ana". */
  label: string;
}

/** Where a step that was replayed (not run) came from: the run whose journal had it, and when it ran there. */
export interface ReplayOrigin {
  runId: string;
  startedAt: string;
  durationMs: number | null;
  /** The step's trace row in that run, when the fork's key names it. */
  callId?: string;
}

/** A node run as the timeline places it. */
export interface TimelineNodeRun {
  startedAt: string;
  endedAt: string | null;
  /** Copied from the run this one was forked from: its recorded steps were replayed (no model, no tool called). */
  replayed?: ReplayOrigin;
  /** How long of its span it spent waiting (see RunTimeline.waits). */
  waitedMs: number;
}

/**
 * A run's time as it was spent: the frame (queued to ended), where each
 * node run sits in it, the waits, and, for a fork, the moment the steps
 * copied from its parent were replayed. Built by the database read
 * (lib/trace/run-timeline.ts); the tree, the waterfall, the compare page and
 * the OpenTelemetry export all place steps by it.
 */
export interface RunTimeline {
  startedAt: string;
  /** null while the run goes on. */
  endedAt: string | null;
  /** For a fork: rows recorded before `before` came from the parent's journal and were replayed at the start of the fork. */
  replay: { fromRunId: string; before: string; at: string } | null;
  nodeRuns: Record<string, TimelineNodeRun>;
  waits: TimelineWait[];
}
