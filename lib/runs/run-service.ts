import { randomUUID } from "node:crypto";
import { recordAttentionChoice, type ChoiceResult, type DecisionInput, type DecisionResult, denyExpiredApprovals, listWaitingApprovals, recordApprovalDecision, type WaitingApproval, requestCancel, resumeInterruptedRuns, type AnswerInput, type AnswerResult, recordQuestionAnswer, notifyRunQueued, queuedRunInsert, forkRun, type ForkRequest, type ForkResult, readForkLinks, type ForkLinks, GuardFailedError, isoFromSql, type SqlDatabase, type SqlStatement } from "../db";
import { validateConfig } from "../canvas/config-check";
import type { AttentionChoice } from "../engine";
import { type GraphProblem, type NodeTypes, parseWorkflow, validateRunInput, validateWorkflow, type Workflow } from "../graph";
import { isRunStatus, type RunOrigin, type RunStatus, settledStatuses } from "../run-model";

/** What to run, and how it came. */
export interface StartRunRequest {
  /** The saved workflow it is a run of; null for a document with none (a file, a test). */
  workflowId: string | null;
  /** The document to run, frozen into the run: parsed and checked here. */
  document: unknown;
  input: unknown;
  origin: RunOrigin;
  /** The run's id (default: a fresh one). */
  runId?: string;
  /**
   * What is checked before anything is written: `full` (the default) the
   * graph against the node types and the input against the Start's fields;
   * `document` only that it is a workflow (a Task Start's sub-flow for an
   * outside host, whose arguments the endpoint checked).
   */
  check?: "full" | "document";
  /** A chat turn: the thread it belongs to (its turn number is the thread's next). */
  threadId?: string;
}

export interface StartRunOptions {
  /** Written in the same transaction as the run (an outside host's task linked to its run). */
  together?: readonly SqlStatement[];
  /**
   * Makes the start happen once per key: a retried start with a key seen
   * before answers the run the first one started, and starts nothing. A key
   * counts for `ttlMs` (24 h by default) per scope (a token, a person).
   */
  once?: OnceKey;
}

/** A claim that makes a start happen once (an Idempotency-Key, a webhook's delivery id, a schedule's tick). */
export interface OnceKey {
  /** Statements that claim the key for `runId` and fail their guard when another run holds it. */
  claim(runId: string, now: Date): readonly SqlStatement[];
  /** The query that reads the run holding the key (`SELECT "runId" …`), after a claim failed. */
  holder: readonly [sql: string, params: readonly unknown[]];
}

export type StartRunResult =
  | { ok: true; runId: string; duplicate: boolean }
  | { ok: false; code: "not-a-workflow" | "graph" | "input"; error: string; field?: string; problems: GraphProblem[] };

/** A run as its caller follows it: where it stands and what it answered. */
export interface RunState {
  runId: string;
  workflowId: string | null;
  status: RunStatus;
  outputs: Record<string, unknown>;
  error: string | null;
  origin: RunOrigin | null;
  startedAt: string;
  endedAt: string | null;
}

export interface RunServiceOptions {
  db: SqlDatabase;
  /** The node types a full check reads (cached per nodes/ version). */
  nodeTypes: () => Promise<NodeTypes>;
  /** Tells this process's workers a run was queued (at once); on Postgres the service also NOTIFYs every other process's. */
  wake: (runId: string) => void;
  now?: () => Date;
}

/**
 * The one way runs are made and moved: the only code that creates, queues,
 * wakes, cancels, resumes, forks or answers a run. The canvas, the command
 * line, the HTTP API, the MCP endpoint, approvals, answered questions and
 * the triggers all call it; a test fails if another place writes a queued
 * run. Workers take the queued runs (lib/runs/worker-runtime.ts).
 */
export class RunService {
  private readonly now: () => Date;

  constructor(private readonly options: RunServiceOptions) {
    this.now = options.now ?? (() => new Date());
  }

  get db(): SqlDatabase {
    return this.options.db;
  }

  /**
   * Checks the document and the input, then writes the run queued (the
   * document frozen, with its origin) and wakes a worker. Everything a
   * person can fix is refused first, naming the field when one is at fault
   * (`input.question`), and nothing is written for a refusal.
   */
  async start(request: StartRunRequest, options: StartRunOptions = {}): Promise<StartRunResult> {
    const checked = await this.check(request);
    if (!checked.ok) return checked;
    const runId = request.runId ?? randomUUID();
    const now = this.now();
    const insert = queuedRunInsert({
      id: runId,
      workflowId: request.workflowId,
      document: JSON.stringify(checked.workflow),
      input: JSON.stringify(checked.input),
      origin: request.origin,
      startedAt: now,
      ...(request.threadId ? { threadId: request.threadId } : {}),
    });
    try {
      await this.options.db.transaction([...(options.once?.claim(runId, now) ?? []), insert, ...(options.together ?? [])]);
    } catch (error) {
      const [holder] = error instanceof GuardFailedError && options.once ? await this.options.db.query<{ runId: string }>(...options.once.holder) : [];
      if (holder) return { ok: true, runId: holder.runId, duplicate: true };
      throw error;
    }
    await this.wake(runId);
    return { ok: true, runId, duplicate: false };
  }

  /** Where a run stands; null when there is no such run. */
  async read(runId: string): Promise<RunState | null> {
    const [row] = await this.options.db.query<{ id: string; workflowId: string | null; status: string; outputs: string; error: string | null; origin: string | null; startedAt: unknown; endedAt: unknown }>(
      `SELECT "id", "workflowId", "status", "outputs", "error", "origin", "startedAt", "endedAt" FROM "Run" WHERE "id" = ?`,
      [runId],
    );
    if (!row) return null;
    return {
      runId: row.id,
      workflowId: row.workflowId,
      status: isRunStatus(row.status) ? row.status : "failed",
      outputs: JSON.parse(row.outputs || "{}") as Record<string, unknown>,
      error: row.error,
      origin: row.origin ? (JSON.parse(row.origin) as RunOrigin) : null,
      startedAt: isoFromSql(row.startedAt),
      endedAt: row.endedAt === null || row.endedAt === undefined ? null : isoFromSql(row.endedAt),
    };
  }

  /**
   * Follows a run until it settles (ends, or waits for a person), the
   * timeout passes, or `signal` aborts; answers where it stands then.
   * Reads the row every `pollMs`: any process may run it.
   */
  async wait(runId: string, options: { timeoutMs: number; signal?: AbortSignal; pollMs?: number }): Promise<RunState | null> {
    const deadline = Date.now() + options.timeoutMs;
    for (;;) {
      const state = await this.read(runId);
      if (!state || settledStatuses.has(state.status) || Date.now() >= deadline || options.signal?.aborted) return state;
      await pause(Math.min(options.pollMs ?? 50, Math.max(1, deadline - Date.now())), options.signal);
    }
  }

  /** Asks a run to stop, whichever process runs it (see requestCancel). */
  cancel(runId: string): ReturnType<typeof requestCancel> {
    return requestCancel(this.options.db, runId, this.now());
  }

  /** A person's choice for the call a run stopped at after a crash; the run is queued again. */
  async choose(runId: string, choice: AttentionChoice, shown?: string): Promise<ChoiceResult> {
    const result = await recordAttentionChoice(this.options.db, runId, choice, this.now(), shown);
    if (result.ok) await this.wake(runId);
    return result;
  }

  /** A person's decision on a call waiting for approval; the run is queued again. */
  async decide(callId: string, input: DecisionInput): Promise<DecisionResult> {
    const result = await recordApprovalDecision(this.options.db, callId, input, this.now());
    if (result.ok) await this.wake(result.runId);
    return result;
  }

  /** A person's answer to a tool's question; the run is queued again. */
  async answer(questionId: string, input: AnswerInput): Promise<AnswerResult> {
    const result = await recordQuestionAnswer(this.options.db, questionId, input, this.now());
    if (result.ok) await this.wake(result.runId);
    return result;
  }

  /** The calls waiting for approval, after denying those past their deadline (their runs are queued again). */
  async waitingApprovals(): Promise<WaitingApproval[]> {
    for (const runId of await denyExpiredApprovals(this.options.db, this.now())) await this.wake(runId);
    return listWaitingApprovals(this.options.db);
  }

  /** Forks a finished run at one of its steps (see forkRun): queued like any run. */
  async fork(request: ForkRequest): Promise<ForkResult> {
    const needsNodeTypes = request.prompt !== undefined || request.model !== undefined || request.document !== undefined;
    const result = await forkRun(this.options.db, request, needsNodeTypes ? { nodeTypes: await this.options.nodeTypes() } : {});
    if (result.ok) await this.wake(result.runId);
    return result;
  }

  /** The run a run was forked from, and its forks. */
  forkLinks(runId: string): Promise<ForkLinks> {
    return readForkLinks(this.options.db, runId);
  }

  /** At start-up on one box: runs a killed process left running are queued again to resume (see resumeInterruptedRuns). */
  async resumeInterrupted(): ReturnType<typeof resumeInterruptedRuns> {
    const result = await resumeInterruptedRuns(this.options.db, this.now());
    if (result.queued > 0) await this.wake("");
    return result;
  }

  /**
   * A run was queued: this process's workers at once, and on Postgres every
   * listening worker of any process (a NOTIFY, sent before the caller hears
   * back, so a command that exits right after has sent it). A wake-up that
   * cannot be sent costs only latency: workers poll too.
   */
  private async wake(runId: string): Promise<void> {
    this.options.wake(runId);
    await notifyRunQueued(this.options.db, runId).catch((error: unknown) =>
      console.warn(`run ${runId || "(several)"}: could not wake the workers of other processes (${(error as Error).message.split("\n")[0]}); they find it on their poll`),
    );
  }

  private async check(request: StartRunRequest): Promise<{ ok: true; workflow: Workflow; input: Record<string, unknown> } | Extract<StartRunResult, { ok: false }>> {
    const parsed = parseWorkflow(request.document);
    if (!parsed.ok) return refusal("not-a-workflow", `The document is not a workflow: ${describe(parsed.problems)}`, parsed.problems);
    if (request.check === "document") return { ok: true, workflow: parsed.workflow, input: (request.input ?? {}) as Record<string, unknown> };
    const graphErrors = validateWorkflow(parsed.workflow, await this.options.nodeTypes(), { validateConfig }).filter((problem) => problem.severity === "error");
    if (graphErrors.length > 0) return refusal("graph", `The workflow has problems to fix on the canvas first: ${describe(graphErrors)}`, graphErrors);
    const input = validateRunInput(parsed.workflow, request.input ?? {});
    if (!input.ok) return refusal("input", describe(input.problems), input.problems);
    return { ok: true, workflow: parsed.workflow, input: input.values };
  }
}

function refusal(code: "not-a-workflow" | "graph" | "input", error: string, problems: GraphProblem[]): Extract<StartRunResult, { ok: false }> {
  const [first] = problems;
  return { ok: false, code, error, problems, ...(problems.length === 1 && first.field ? { field: first.field } : {}) };
}

function describe(problems: readonly GraphProblem[]): string {
  const shown = problems.slice(0, 5).map((problem) => problem.message);
  return shown.join("; ") + (problems.length > shown.length ? `; and ${problems.length - shown.length} more` : "");
}


function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
