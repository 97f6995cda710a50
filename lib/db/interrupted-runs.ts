import type { PrismaClient } from "./create-client";

export const interruptedRunMessage = "the server stopped while it ran";

/**
 * At start-up on one box (embedded mode, SQLite) nothing can be running
 * yet, so every run still marked running was left by a killed process:
 * - a run a worker held (`workerId` set) is queued again, and the worker
 *   resumes it from its journal (recorded steps are replayed, not run again);
 * - a run no worker held (an outside MCP host's call, run by the endpoint in
 *   its own process while the host waited) is ended as failed, node runs too:
 *   its host has gone, and nothing would resume it. Its MCP task, when it
 *   was one, ends failed with that reason, so a host that comes back reads it.
 * Called once (scripts/prepare-app.ts). With Postgres and workers this sweep
 * is not used: a dead worker's runs are taken over when its leases expire.
 * Returns how many runs it queued and how many it failed.
 */
export async function resumeInterruptedRuns(db: PrismaClient, now: Date = new Date()): Promise<{ queued: number; failed: number }> {
  const orphans = await db.run.findMany({ where: { status: "running", workerId: null }, select: { id: true } });
  const ids = orphans.map((run) => run.id);
  const [queued, failed] = await db.$transaction([
    db.run.updateMany({ where: { status: "running", workerId: { not: null } }, data: { status: "queued", leaseExpiresAt: null } }),
    db.run.updateMany({ where: { id: { in: ids } }, data: { status: "failed", error: interruptedRunMessage, endedAt: now } }),
    db.nodeRun.updateMany({ where: { runId: { in: ids }, status: "running" }, data: { status: "failed", error: interruptedRunMessage, endedAt: now } }),
    db.mcpEndpointTask.updateMany({
      where: { runId: { in: ids }, status: { notIn: ["completed", "failed", "cancelled"] } },
      data: { status: "failed", statusMessage: interruptedRunMessage, result: JSON.stringify({ content: [{ type: "text", text: interruptedRunMessage }], isError: true }), lastUpdatedAt: now },
    }),
  ]);
  return { queued: queued.count, failed: failed.count };
}
