import type { ClaimedRun, Heartbeat, QueueTimings, RunQueue } from "../queue";
import { notifyRunQueued, type WakeSource } from "./postgres/run-wakes";
import { requeueReleasedRun } from "./queued-runs";
import type { SqlDatabase } from "./sql/sql-database";

export type { WakeSource } from "./postgres/run-wakes";


/**
 * The run queue on the Run table itself: a queued run is a row with status
 * `queued`; a worker claims it by a conditional update that sets itself as
 * holder and a lease; a heartbeat renews the lease; a run whose lease
 * expired is claimable again, and counts one more resume. The conditional
 * update makes "held by two workers at once" impossible on SQLite and
 * Postgres alike. Idle workers sleep until woken (a run queued in this
 * process, a NOTIFY from another, a slot come free), polling every `pollMs`
 * only as the fallback.
 */
export class DatabaseRunQueue implements RunQueue {
  private readonly local = new Set<() => void>();
  /** A wake-up that came while nobody waited (the claim loop was claiming): the next wait ends at once, so it is not lost. */
  private pending = false;
  private readonly unsubscribe: (() => void) | undefined;

  constructor(
    private readonly db: SqlDatabase,
    private readonly timings: QueueTimings,
    private readonly wakes: WakeSource | null = null,
    private readonly now: () => Date = () => new Date(),
    /** Claims only these runs (a command's own run); default any. */
    private readonly onlyRuns?: readonly string[],
  ) {
    this.unsubscribe = wakes?.subscribe(() => this.wake());
  }

  /** Ends the waits for work at once (a run was queued, a slot came free); with none waiting, the next wait ends at once. */
  wake(): void {
    if (this.local.size === 0) {
      this.pending = true;
      return;
    }
    for (const wake of [...this.local]) wake();
  }

  async claim(workerId: string, limit: number): Promise<ClaimedRun[]> {
    const now = this.now();
    const lease = new Date(now.getTime() + this.timings.leaseMs);
    const only = this.onlyRuns ? ` AND "id" IN (${this.onlyRuns.map(() => "?").join(", ") || "NULL"})` : "";
    if (this.db.dialect === "postgres") {
      // One round trip: the candidates locked (skipping those another worker is claiming) and taken in one statement.
      // The candidates are a MATERIALIZED CTE, evaluated once: as `WHERE "id" IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)`
      // the planner may rescan the subquery once per outer row, and each rescan skips the rows already locked and
      // locks n more, so one claim took every queued run whatever its limit (one worker held them all, the others idled).
      const rows = await this.db.query<{ id: string; resumeCount: number }>(
        `WITH "candidate" AS MATERIALIZED (SELECT "id" FROM "Run" WHERE ("status" = 'queued' OR ("status" = 'running' AND "leaseExpiresAt" < ?))${only} ORDER BY "startedAt", "id" LIMIT ? FOR UPDATE SKIP LOCKED)
         UPDATE "Run" SET "status" = 'running', "workerId" = ?, "leaseExpiresAt" = ?, "resumeCount" = "Run"."resumeCount" + CASE WHEN "Run"."workerId" IS NULL THEN 0 ELSE 1 END
         FROM "candidate" WHERE "Run"."id" = "candidate"."id"
         AND ("Run"."status" = 'queued' OR ("Run"."status" = 'running' AND "Run"."leaseExpiresAt" < ?)) RETURNING "Run"."id", "Run"."resumeCount"`,
        [now, ...(this.onlyRuns ?? []), limit, workerId, lease, now],
      );
      return rows.map((row) => ({ runId: row.id, workerId, resumeCount: Number(row.resumeCount) }));
    }
    const candidates = await this.db.query<{ id: string }>(
      `SELECT "id" FROM "Run" WHERE ("status" = 'queued' OR ("status" = 'running' AND "leaseExpiresAt" < ?))${only} ORDER BY "startedAt", "id" LIMIT ?`,
      [now, ...(this.onlyRuns ?? []), limit],
    );
    const claimed: ClaimedRun[] = [];
    for (const { id } of candidates) {
      const rows = await this.db.query<{ resumeCount: number }>(
        `UPDATE "Run" SET "status" = 'running', "workerId" = ?, "leaseExpiresAt" = ?, "resumeCount" = "resumeCount" + CASE WHEN "workerId" IS NULL THEN 0 ELSE 1 END
         WHERE "id" = ? AND ("status" = 'queued' OR ("status" = 'running' AND "leaseExpiresAt" < ?)) RETURNING "resumeCount"`,
        [workerId, lease, id, now],
      );
      if (rows.length === 1) claimed.push({ runId: id, workerId, resumeCount: Number(rows[0].resumeCount) });
    }
    return claimed;
  }

  async heartbeat(workerId: string, runIds: readonly string[]): Promise<Heartbeat> {
    if (runIds.length === 0) return { lost: [], cancelRequested: [] };
    const lease = new Date(this.now().getTime() + this.timings.leaseMs);
    const list = runIds.map(() => "?").join(", ");
    await this.db.execute(`UPDATE "Run" SET "leaseExpiresAt" = ? WHERE "workerId" = ? AND "status" = 'running' AND "id" IN (${list})`, [lease, workerId, ...runIds]);
    const rows = await this.db.query<{ id: string; workerId: string | null; cancelRequestedAt: unknown }>(`SELECT "id", "workerId", "cancelRequestedAt" FROM "Run" WHERE "id" IN (${list})`, [...runIds]);
    return {
      lost: rows.filter((row) => row.workerId !== workerId).map((row) => row.id),
      cancelRequested: rows.filter((row) => row.cancelRequestedAt !== null && row.workerId === workerId).map((row) => row.id),
    };
  }

  async release(claim: ClaimedRun): Promise<void> {
    // Fenced like the journal: a claim that was replaced (even by the same worker, after its lease lapsed) gives back nothing.
    const [sql, params] = requeueReleasedRun(claim);
    const requeued = await this.db.execute(sql, params);
    this.wake();
    // Another process's worker may take it at once (this one is usually stopping).
    if (requeued > 0) await notifyRunQueued(this.db, claim.runId).catch(() => undefined);
  }

  waitForWork(signal: AbortSignal): Promise<void> {
    if (this.pending || signal.aborted) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.local.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, this.timings.pollMs);
      this.local.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    await this.wakes?.close?.();
  }
}

/**
 * Asks a run to stop, from any process: a queued run (or one waiting for a
 * person) ends cancelled at once; a running one is flagged, and its worker
 * aborts it on its next heartbeat. When the run is an outside host's MCP
 * task (a queued run like any other, see lib/runs/outside-runs.ts), its
 * task is marked cancelled too, and the host reads it so. Returns what
 * happened.
 */
export async function requestCancel(db: SqlDatabase, runId: string, now: Date = new Date()): Promise<"cancelled" | "requested" | "ended" | "unknown"> {
  const ended = await db.execute(
    `UPDATE "Run" SET "status" = 'cancelled', "error" = 'the run was cancelled', "endedAt" = ?, "attention" = NULL WHERE "id" = ? AND "status" IN ('queued', 'needs-attention')`,
    [now, runId],
  );
  const flagged = ended > 0 ? 0 : await db.execute(`UPDATE "Run" SET "cancelRequestedAt" = ? WHERE "id" = ? AND "status" = 'running'`, [now, runId]);
  if (ended > 0 || flagged > 0) {
    await db.execute(
      `UPDATE "McpEndpointTask" SET "status" = 'cancelled', "statusMessage" = 'the run was cancelled', "lastUpdatedAt" = ? WHERE "runId" = ? AND "status" NOT IN ('completed', 'failed', 'cancelled')`,
      [now, runId],
    );
    return ended > 0 ? "cancelled" : "requested";
  }
  const [row] = await db.query(`SELECT "status" FROM "Run" WHERE "id" = ?`, [runId]);
  return row ? "ended" : "unknown";
}
