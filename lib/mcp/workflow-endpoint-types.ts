import type { TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { EngineEnvironment, TaskOutcome, TaskRequest } from "../engine";
import type { Workflow } from "../graph";
import type { QuestionAsker } from "../run-model/tool-question";
import type { ToolCallRow, RemoteParent } from "../trace";

/*
 * The words of the workflow endpoint (workflow-endpoint.ts), shared by its
 * parts: who calls, one outside call and how it ends, the runs it opens,
 * and the options the app gives it.
 */

/** The MCP client on the other end, as it named itself in `initialize`. */
export interface McpHost {
  name: string;
  version: string;
  /** Who the request's bearer token names (2026-07-28 requests): a decision the host's user makes names them too. */
  person?: string;
}

/** One call an outside host made through the endpoint. */
export interface OutsideCall {
  kind: "service" | "task";
  /** The tool as the endpoint lists it. */
  tool: string;
  /** The service node or Task Start that answers it. */
  server: string;
  arguments: Record<string, unknown>;
  host: McpHost;
  /** Asks the host a question (MCP elicitation, form mode): set when the host declared it can be asked. A sub-flow's approvals go to it first. */
  askHost?: QuestionAsker;
  /** The host's span, from a W3C traceparent in the call's `_meta` (see trace-meta.ts); the run joins its trace. */
  traceParent?: RemoteParent | null;
  /** The id the call's Run must have (a task tied to its run in a shared task store); otherwise a fresh one. */
  runId?: string;
}

export type OutsideCallEnd = { ok: true; result: unknown } | { ok: false; error: string };

/** The Run of one service call: opened before the call, ended after its row. */
export interface OutsideRun {
  runId: string;
  /** Writes the call's trace row (already redacted). */
  recordCall(row: ToolCallRow): Promise<void>;
  end(outcome: OutsideCallEnd): Promise<void>;
}

/** A task call's sub-flow, run to its end as a Run of its own. */
export interface OutsideTaskRun {
  outcome: TaskOutcome;
  /** Writes the call's trace row into that run, then ends the run: the row is there before the run says it ended. */
  finish(row: ToolCallRow): Promise<void>;
}

/** A task call's sub-flow, written as a queued Run that a worker runs (with its journal, so it survives this process). */
export interface QueuedOutsideTask {
  runId: string;
  /**
   * Settles when this process stops following the run: the run ended, or it
   * waits for a person that the host was not (or could not be) asked for;
   * `waitsFor` then says what it waits on. While it follows, a host that can
   * be asked decides the run's approvals (`OutsideCall.askHost`).
   */
  followed: Promise<{ waitsFor?: string }>;
}

export interface WorkflowEndpointOptions {
  workflowId: string;
  workflow: Workflow;
  /** Node manifests, the sandbox and credentials, for the service nodes' methods. */
  env: Pick<EngineEnvironment, "catalogue" | "evaluator" | "credentials" | "credentialOrigins" | "grants" | "allowedPrivateOrigins">;
  /** Opens the Run of one service call (status running). */
  openRun(call: OutsideCall): Promise<OutsideRun>;
  /**
   * Queues a Task Start's sub-flow as a Run of its own, tied to the stored
   * task `taskId`: a worker runs it and ends the task (the app). Needs a
   * shared `taskStore`. With `follow` this process follows the run (a host
   * that can be asked, or a call waiting for the result) until `signal`
   * aborts (the endpoint closes here; the run goes on); without, `followed`
   * settles at once.
   */
  queueTask?(call: OutsideCall, task: { taskId: string; signal: AbortSignal; follow: boolean }): Promise<QueuedOutsideTask>;
  /** Without `queueTask` (tests): runs a Task Start's sub-flow in this process as a Run of its own, nested under the call's row (`request.parentToolCallId`). */
  runTask?(call: OutsideCall, request: TaskRequest): Promise<OutsideTaskRun>;
  /** How often a host should poll a task's status, in ms (default 500). */
  taskPollInterval?: number;
  /** Where the endpoint's tasks are kept (default: this process's memory): the app's database, so any process reads and cancels them. */
  taskStore?: EndpointTaskStore;
  /**
   * Who calls, when the caller is known per request (2026-07-28 hosts name
   * themselves on every request). Default: the name the host gave in
   * `initialize` (2025-era sessions).
   */
  host?: McpHost;
}

/** A task store the endpoint can share between processes (the database's PrismaTaskStore). */
export interface EndpointTaskStore extends TaskStore {
  /** Ties a task to the Run of its sub-flow, so a cancel reaches the run; says whether the task was cancelled meanwhile. */
  linkRun?(taskId: string, runId: string): Promise<{ cancelled: boolean }>;
}
