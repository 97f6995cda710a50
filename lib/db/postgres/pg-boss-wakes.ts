import type { WakeSource } from "../database-run-queue";

/** The pg-boss queue that carries "a run was queued" between processes. */
export const runQueueName = "switchboard-runs";

/**
 * Scale-out mode's queue transport: pg-boss (a job queue on Postgres) carries
 * each enqueue to the workers as a job, so an idle worker wakes without
 * waiting for its poll; the Run row stays the record (its lease decides who
 * holds the run, and a worker that dies loses it when the lease expires,
 * whatever pg-boss thinks of the job). `work: false` in the web app, which
 * only sends.
 */
export async function pgBossWakes(url: string, options: { work: boolean; pollingIntervalSeconds?: number }): Promise<WakeSource> {
  const { PgBoss } = await import("pg-boss");
  const boss = new PgBoss({ connectionString: url, max: 2 });
  boss.on("error", () => undefined); // a dropped connection is retried; runs are found by polling meanwhile
  await boss.start();
  if (!(await boss.getQueue(runQueueName))) await boss.createQueue(runQueueName).catch(() => undefined);
  const listeners = new Set<() => void>();
  if (options.work) {
    await boss.work(runQueueName, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5, batchSize: 100 }, async () => {
      for (const wake of [...listeners]) wake();
    });
  }
  return {
    subscribe(wake) {
      listeners.add(wake);
      return () => listeners.delete(wake);
    },
    async notify(runId) {
      await boss.send(runQueueName, { runId });
    },
    async close() {
      await boss.stop({ graceful: false, timeout: 2000 }).catch(() => undefined);
    },
  };
}
