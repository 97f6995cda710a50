import { databaseUrl } from "../db/database-url";
import { openSqlDatabase } from "../db/sql/open-database";
import { RunService } from "./run-service";
import { runNodeTypes } from "./run-environment";

/**
 * This process's run service and what it shares: one database handle and
 * the wake-up of this process's own worker (the embedded one, or the
 * command line's); on Postgres the service itself NOTIFYs every other
 * process's workers. Kept on globalThis: Next may load this module more than once (one
 * copy per server bundle), and every copy must share them.
 */
interface ProcessRuns {
  service?: RunService;
  localWorkers: Set<() => void>;
}

const holder = globalThis as typeof globalThis & { switchboardRuns?: ProcessRuns };

function shared(): ProcessRuns {
  holder.switchboardRuns ??= { localWorkers: new Set() };
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
 * Wakes this process's workers for a queued run, at once (an in-process
 * signal). Other processes' workers are woken by the run service's NOTIFY
 * on Postgres; on SQLite they find the run on their poll.
 */
export function wakeWorkers(): void {
  for (const wake of [...shared().localWorkers]) wake();
}

/** Closes what this process opened for runs (the command line, before it exits). */
export async function closeProcessRuns(): Promise<void> {
  const runs = holder.switchboardRuns;
  if (!runs) return;
  holder.switchboardRuns = undefined;
  await runs.service?.db.close();
}
