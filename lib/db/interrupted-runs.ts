import type { PrismaClient } from "./create-client";

export const interruptedRunMessage = "the server stopped while it ran";

/**
 * Queues again every run still marked running: on one box (embedded mode,
 * SQLite) nothing can be running before the server starts, so these are the
 * runs a killed process left behind. The worker resumes each from its
 * journal (its recorded steps are replayed, not run again). Called once at
 * start-up (scripts/prepare-app.ts). With Postgres and workers this sweep is
 * not used: a dead worker's runs are taken over when its leases expire.
 * Returns how many runs it queued.
 */
export async function resumeInterruptedRuns(db: PrismaClient): Promise<number> {
  const runs = await db.run.updateMany({ where: { status: "running" }, data: { status: "queued", leaseExpiresAt: null } });
  return runs.count;
}
