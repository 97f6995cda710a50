import type { ForkChange } from "../run-model/fork-change";
import type { ToolQuestion } from "../run-model/tool-question";
import type { ApprovalPolicy } from "../manifest";
import type { ModelTurnLike, NodeStatus, ReplayOrigin, RunStatus, RunTimeline, TaintRecord, ToolCallRow } from "./trace-types";
import type { RunOrigin } from "../run-model";
import type { HoldCause, TaintedArgument, TaintedContextSource } from "../policy";

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
  /** The worker that holds the run (or held it last). */
  workerId?: string | null;
  /** How many times a worker took the run up again after it had started. */
  resumeCount?: number;
  /** For needs-attention: the call a person must decide about. */
  attention?: AttentionRequest | null;
  /** Set on a fork: the run it was forked from and the journal key of the step (see lib/db/run-fork.ts). */
  forkedFrom?: { runId: string; at: string; change: ForkChange | null };
  /** How the run started, and who or what started it (null for runs recorded before origins were kept). */
  origin?: RunOrigin | null;
}

/** The step a needs-attention run waits on; the choice is recorded under `choiceKey` (`<key>/choice` when none: a run from before attempts). */
export interface AttentionRequest {
  key: string;
  /** Where the person's choice for this attempt of the step goes: `<key>/choice` for the first, `<key>/choice/<n>` for the n-th. */
  choiceKey?: string;
  /** The id a person decides by (the id the call's trace row will have); set when the run is read. */
  callId?: string;
  nodeId: string;
  nodeRunId: string;
  tool: string;
  server: string;
  arguments: unknown;
  message: string;
  /** Set when the call waits for approval (a policy asked), not for a choice after a crash: the decision is recorded under `<key>/decision`. */
  approval?: ApprovalRequest;
  /** Set when the call's tool asked a question (MCP elicitation): the answer is recorded under `question.key`. */
  question?: QuestionRequest;
}

/** A question a tool asked during a call, waiting for a person's answer (form values, or a URL to follow; decline and cancel are answers too). */
export interface QuestionRequest {
  /** The journal key the answer is recorded under: `<call key>/elicit/<n>`. */
  key: string;
  question: ToolQuestion;
  since: string;
  /** When the question is cancelled for want of an answer. */
  deadline: string;
}

/** What a call waiting for approval shows a person: the policy that asked and why, the tainted arguments and where they came from. */
export interface ApprovalRequest {
  policy: ApprovalPolicy;
  /** Where the policy was set, e.g. `node approvals["send_email"]`, `the workflow default`. */
  setAt: string;
  rule: string;
  reason: string;
  tainted: TaintedArgument[];
  /** The tainted results in the agent's context when it wrote the call (trace row ids, with the tool that returned each when known); absent or empty when clean. */
  taintedContext?: TaintedContextSource[];
  /** Why the call was held (destructive, tainted context, policy); absent on requests recorded before causes were. */
  causes?: HoldCause[];
  /** The tool's input schema: edited arguments are checked against it. */
  inputSchema: Record<string, unknown>;
  since: string;
  /** When the call is denied for want of a decision (the policy's timeout). */
  deadline: string;
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
  /** The outputs whose values came from external content (the run's taint registry); empty when clean. */
  taintedOutputs: string[];
  error: string | null;
  startedAt: string;
  endedAt: string | null;
  /** Placed by the run's timeline: copied from a fork's parent and replayed (startedAt is then when the fork replayed it). */
  replayedFrom?: ReplayOrigin;
  /** Placed by the run's timeline: how long of its span it waited (for a person, a worker). */
  waitedMs?: number;
}

/** The trace row as written, plus the order it was written in within its run. */
export interface ToolCallRecord extends ToolCallRow {
  sequence: number;
  /** The run's resume count when the row was written: a row written before the run's latest resume was replayed from the journal since. */
  attempt?: number;
  /** Written before the run's latest resume: that resume replayed it from the journal instead of running it again. */
  replayed?: boolean;
  /** Placed by the run's timeline: copied from a fork's parent and replayed there (startedAt is then when the fork replayed it, durationMs 0). */
  replayedFrom?: ReplayOrigin;
}

/**
 * An entry of the run's taint registry as recorded, with its row id and the
 * order it was written in (`sequence` counts tool calls and taint entries
 * together, so one "after n" serves both).
 */
export type TaintRecordEntry = TaintRecord & { id: string; sequence: number };

export interface RunTrace {
  run: RunRecord;
  nodeRuns: NodeRunRecord[];
  toolCalls: ToolCallRecord[];
  /** Where external content came in and what it reached, in write order. */
  taintRecords: TaintRecordEntry[];
  /** The run's model turns (from its journal), when the reader loads them. */
  modelTurns?: ModelTurnLike[];
  /** When the server read this (ISO): the "now" of a run still running, the same on server and browser. */
  readAt: string;
  /** How the run's time was spent; the rows above are already placed by it (see lib/trace/run-timeline.ts). */
  timeline?: RunTimeline;
}

/**
 * The part of a run's trace that judging its calls needs: its end, its
 * node runs' places and errors, its calls in the order they started (no
 * results, turns, taint or timeline). A RunTrace is one.
 */
export interface RunOutline {
  run: Pick<RunRecord, "status" | "outputs" | "error">;
  nodeRuns: Array<Pick<NodeRunRecord, "id" | "nodeId" | "parentToolCallId" | "error">>;
  toolCalls: Array<Pick<ToolCallRecord, "nodeRunId" | "tool" | "server" | "arguments" | "error" | "stepKey">>;
}

/** A model turn as the tree shows it: its journal key (what a fork names) and its row. */
export type TraceTurn = ModelTurnLike & { stepKey?: string; replayedFrom?: ReplayOrigin };

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
  /** needs-attention because a policy asked a person to approve a call (shown as "waiting for approval"). */
  waitingForApproval?: boolean;
  forkedFrom?: RunRecord["forkedFrom"];
  /** needs-attention because a tool asked a question (MCP elicitation) (shown as "waiting for input"). */
  waitingForInput?: boolean;
  origin?: RunOrigin | null;
}

export const runStatuses: readonly RunStatus[] = ["queued", "running", "needs-attention", "completed", "failed", "cancelled"];
export const nodeStatuses: readonly NodeStatus[] = ["running", "completed", "max_turns", "stuck", "failed", "cancelled", "needs-attention", "waiting"];
