import { hostname } from "node:os";
import { requeueInterruptedRuns } from "./queued-runs";
import type { SqlDatabase } from "./sql/sql-database";

export const interruptedRunMessage = "the server stopped while it ran";

/**
 * Whether the worker `workerId` names (`host:pid:id`, see newWorkerId in
 * lib/queue/run-worker.ts) may still be running: a process of another host,
 * or one of this host's that is alive. Only a process of this host that is
 * gone is surely dead.
 */
export function holderMayBeAlive(workerId: string, host: string = hostname()): boolean {
  const [workerHost, pid] = workerId.split(":");
  if (workerHost !== host || !/^\d+$/.test(pid ?? "")) return true;
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * At start-up on one box (embedded mode, SQLite), runs still marked running
 * were mostly left by a killed process:
 * - a run a worker held is queued again, and the worker resumes it from its
 *   journal (recorded steps are replayed, not run again), when its holder is
 *   surely gone (a process of this host that no longer runs) or its lease
 *   has expired. A run held by a live worker (`npm run worker` beside the
 *   server) is left to it: taking it away would cut its call in flight,
 *   stopping a call that is not safe to repeat as needs-attention; if that
 *   worker dies, its lease expires and the run is taken over;
 *   An outside MCP host's task call is such a run (a queued Run a worker
 *   runs), so its task is resumed with it, not failed;
 * - an outside host's service call (answered by the web process that took
 *   it while the host waited) is held by that process's lease: a worker
 *   that takes it up ends it failed (app/runs/worker-runtime.ts);
 * - a run no worker held (such a call written before it had a lease) is ended as failed,
 *   node runs too: its host has gone, and nothing would resume it. A task
 *   tied to such a run (left by a version that ran task sub-flows in the
 *   web process) ends failed with that reason, so a host that comes back
 *   reads it.
 * Called once (scripts/prepare-app.ts). With Postgres and workers this sweep
 * is not used: a dead worker's runs are taken over when its leases expire.
 * Returns how many runs it queued, failed, and left to a live worker.
 */
export async function resumeInterruptedRuns(db: SqlDatabase, now: Date = new Date(), mayBeAlive: (workerId: string) => boolean = holderMayBeAlive): Promise<{ queued: number; failed: number; leftToLiveWorkers: number }> {
  const running = await db.query<{ id: string; workerId: string | null; leaseExpiresAt: unknown }>(`SELECT "id", "workerId", "leaseExpiresAt" FROM "Run" WHERE "status" = 'running'`);
  const orphans = running.filter((run) => run.workerId === null).map((run) => run.id);
  const held = running.filter((run) => run.workerId !== null);
  const lapsed = (lease: unknown) => lease === null || new Date(lease as string | Date).getTime() <= now.getTime();
  const resumable = held.filter((run) => lapsed(run.leaseExpiresAt) || !mayBeAlive(run.workerId as string)).map((run) => run.id);
  const list = (ids: readonly string[]) => ids.map(() => "?").join(", ") || "NULL";
  const failedResult = JSON.stringify({ content: [{ type: "text", text: interruptedRunMessage }], isError: true });
  await db.transaction([
    requeueInterruptedRuns(resumable),
    [`UPDATE "Run" SET "status" = 'failed', "error" = ?, "endedAt" = ? WHERE "status" = 'running' AND "workerId" IS NULL AND "id" IN (${list(orphans)})`, [interruptedRunMessage, now, ...orphans]],
    [`UPDATE "NodeRun" SET "status" = 'failed', "error" = ?, "endedAt" = ? WHERE "status" = 'running' AND "runId" IN (${list(orphans)})`, [interruptedRunMessage, now, ...orphans]],
    [
      `UPDATE "McpEndpointTask" SET "status" = 'failed', "statusMessage" = ?, "result" = ?, "lastUpdatedAt" = ? WHERE "status" NOT IN ('completed', 'failed', 'cancelled') AND "runId" IN (${list(orphans)})`,
      [interruptedRunMessage, failedResult, now, ...orphans],
    ],
  ]);
  return { queued: resumable.length, failed: orphans.length, leftToLiveWorkers: held.length - resumable.length };
}
