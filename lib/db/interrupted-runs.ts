import { hostname } from "node:os";
import type { PrismaClient } from "./create-client";

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
export async function resumeInterruptedRuns(db: PrismaClient, now: Date = new Date(), mayBeAlive: (workerId: string) => boolean = holderMayBeAlive): Promise<{ queued: number; failed: number; leftToLiveWorkers: number }> {
  const running = await db.run.findMany({ where: { status: "running" }, select: { id: true, workerId: true, leaseExpiresAt: true } });
  const orphans = running.filter((run) => run.workerId === null).map((run) => run.id);
  const held = running.filter((run) => run.workerId !== null);
  const resumable = held.filter((run) => !run.leaseExpiresAt || run.leaseExpiresAt <= now || !mayBeAlive(run.workerId as string)).map((run) => run.id);
  const [queued, failed] = await db.$transaction([
    db.run.updateMany({ where: { id: { in: resumable }, status: "running" }, data: { status: "queued", leaseExpiresAt: null } }),
    db.run.updateMany({ where: { id: { in: orphans }, status: "running", workerId: null }, data: { status: "failed", error: interruptedRunMessage, endedAt: now } }),
    db.nodeRun.updateMany({ where: { runId: { in: orphans }, status: "running" }, data: { status: "failed", error: interruptedRunMessage, endedAt: now } }),
    db.mcpEndpointTask.updateMany({
      where: { runId: { in: orphans }, status: { notIn: ["completed", "failed", "cancelled"] } },
      data: { status: "failed", statusMessage: interruptedRunMessage, result: JSON.stringify({ content: [{ type: "text", text: interruptedRunMessage }], isError: true }), lastUpdatedAt: now },
    }),
  ]);
  return { queued: queued.count, failed: failed.count, leftToLiveWorkers: held.length - resumable.length };
}
