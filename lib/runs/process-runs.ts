import { databaseUrl } from "../db/database-url";
import type { WakeSource } from "../db/database-run-queue";
import { pgBossWakes } from "../db/postgres/pg-boss-wakes";
import { isPostgresUrl, openSqlDatabase } from "../db/sql/open-database";
import { RunService } from "./run-service";
import { runNodeTypes } from "./run-environment";

/**
 * This process's run service and what it shares: one database handle, the
 * wake-up of this process's own worker (the embedded one, or the command
 * line's), and on Postgres the pg-boss sender that wakes every other
 * worker. Kept on globalThis: Next may load this module more than once (one
 * copy per server bundle), and every copy must share them.
 */
interface ProcessRuns {
  service?: RunService;
  localWorkers: Set<() => void>;
  pgBoss?: Promise<WakeSource>;
  /** Wake-ups on their way to pg-boss: a command that exits waits for them. */
  sending: Set<Promise<unknown>>;
}

const holder = globalThis as typeof globalThis & { switchboardRuns?: ProcessRuns };

function shared(): ProcessRuns {
  holder.switchboardRuns ??= { localWorkers: new Set(), sending: new Set() };
  return holder.switchboardRuns;
}

/** The run service over DATABASE_URL, made once per process. */
export function runService(): RunService {
  const runs = shared();
  runs.service ??= new RunService({ db: openSqlDatabase(databaseUrl()), nodeTypes: () => runNodeTypes(), wake: wakeWorkers });
  return runs.service;
}

/** Registers this process's worker, woken at once when a run is queued here; returns how to unregister it. */
export function onLocalRunQueued(wake: () => void): () => void {
  const workers = shared().localWorkers;
  workers.add(wake);
  return () => workers.delete(wake);
}

/**
 * Wakes the workers for a queued run: this process's at once, and on
 * Postgres every other process's through pg-boss. A wake-up that cannot be
 * sent costs only latency: workers find queued runs by polling too.
 */
export function wakeWorkers(runId: string): void {
  const runs = shared();
  for (const wake of [...runs.localWorkers]) wake();
  const url = databaseUrl();
  if (!isPostgresUrl(url) || process.env.SWITCHBOARD_PG_BOSS === "false") return;
  runs.pgBoss ??= pgBossWakes(url, { work: false });
  const sending = runs.pgBoss
    .then((boss) => boss.notify?.(runId))
    .catch((error: unknown) => console.warn(`run ${runId}: pg-boss could not wake the workers (${(error as Error).message}); they find it by polling`))
    .finally(() => runs.sending.delete(sending));
  runs.sending.add(sending);
}

/** Closes what this process opened for runs (the command line, before it exits). */
export async function closeProcessRuns(): Promise<void> {
  const runs = holder.switchboardRuns;
  if (!runs) return;
  holder.switchboardRuns = undefined;
  await Promise.all(runs.sending);
  await (await runs.pgBoss?.catch(() => undefined))?.close?.();
  await runs.service?.db.close();
}
