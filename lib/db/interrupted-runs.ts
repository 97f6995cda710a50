import type { PrismaClient } from "./create-client";

export const interruptedRunMessage = "the server stopped while it ran";

/**
 * Ends, as failed, every run and node run still marked running: the process
 * that ran them was killed, so nothing will ever end them. Called once at
 * start-up, before the server takes requests (scripts/prepare-app.ts) — on a
 * single box no run can be running then. Returns how many runs it ended.
 *
 * When runs move to workers on Postgres this must be limited to the runs of
 * the worker that is starting (or done by the queue's own expiry).
 */
export async function failInterruptedRuns(db: PrismaClient, now: Date = new Date()): Promise<number> {
  const [runs] = await db.$transaction([
    db.run.updateMany({ where: { status: "running" }, data: { status: "failed", error: interruptedRunMessage, endedAt: now } }),
    db.nodeRun.updateMany({ where: { status: "running" }, data: { status: "failed", error: interruptedRunMessage, endedAt: now } }),
  ]);
  return runs.count;
}
