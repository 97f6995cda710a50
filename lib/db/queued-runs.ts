import type { RunOrigin } from "../run-model";
/** A statement with no guard: it runs inside any transaction. */
type Statement = readonly [sql: string, params: readonly unknown[]];

/**
 * The only statements that put a run in the queue: a new run written
 * queued, and a run that waited for a person (a decision, an answer, a
 * choice after a crash) queued again. The run service (lib/runs) is the one
 * caller from outside lib/db; a test holds every other file to that.
 */

/** A new run, as the run service writes it. */
export interface QueuedRunRow {
  id: string;
  workflowId: string | null;
  /** The document, frozen (JSON text). */
  document: string;
  /** The input (JSON text). */
  input: string;
  origin: RunOrigin;
  startedAt: Date;
  /** Set on a fork: the parent, the step it was forked at, and what it changed (JSON text). */
  fork?: { fromRunId: string; atStep: string; change: string };
  /** Set on a chat turn: its thread; the turn is numbered after the thread's last (in the same statement). */
  threadId?: string;
}

export function queuedRunInsert(row: QueuedRunRow): Statement {
  return [
    `INSERT INTO "Run" ("id", "workflowId", "document", "input", "status", "outputs", "startedAt", "resumeCount", "forkedFromRunId", "forkedAtStep", "forkChange", "origin", "originKind", "threadId", "threadTurn")
     VALUES (?, ?, ?, ?, 'queued', '{}', ?, 0, ?, ?, ?, ?, ?, ?, CASE WHEN ? IS NULL THEN NULL ELSE (SELECT COALESCE(MAX("threadTurn"), 0) + 1 FROM "Run" WHERE "threadId" = ?) END)`,
    [row.id, row.workflowId, row.document, row.input, row.startedAt, row.fork?.fromRunId ?? null, row.fork?.atStep ?? null, row.fork?.change ?? null, JSON.stringify(row.origin), row.origin.kind, row.threadId ?? null, row.threadId ?? null, row.threadId ?? null],
  ];
}

/** A run that waited for a person, queued again (only while it still waits). */
export function requeueWaitingRun(runId: string): Statement {
  return [`UPDATE "Run" SET "status" = 'queued', "attention" = NULL, "error" = NULL WHERE "id" = ? AND "status" = 'needs-attention'`, [runId]];
}

/** A run handed back by the worker that held it (it is stopping), queued again for any worker; fenced by the claim. */
export function requeueReleasedRun(claim: { runId: string; workerId: string; resumeCount: number }): Statement {
  return [`UPDATE "Run" SET "status" = 'queued', "leaseExpiresAt" = NULL WHERE "id" = ? AND "workerId" = ? AND "resumeCount" = ? AND "status" = 'running'`, [claim.runId, claim.workerId, claim.resumeCount]];
}

/** Runs left running by a process that is gone, queued again to be resumed from their journals. */
export function requeueInterruptedRuns(runIds: readonly string[]): Statement {
  return [`UPDATE "Run" SET "status" = 'queued', "leaseExpiresAt" = NULL WHERE "status" = 'running' AND "id" IN (${runIds.map(() => "?").join(", ") || "NULL"})`, [...runIds]];
}
