import { databaseUrl, isPostgresUrl, openSqlDatabase, type RunTextRelayHandle, startRunTextRelay } from "../db";
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
  textRelay?: RunTextRelayHandle | null;
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

/**
 * Makes sure this process hears the live text of runs other processes run
 * (on Postgres, where workers are other processes; SWITCHBOARD_LISTEN=false
 * turns it off, as for the workers' wake-ups): started once, by the first
 * stream that follows a run. On SQLite the runs of this process are the
 * ones it follows, and nothing is needed.
 */
export function relayRunTextHere(): void {
  const runs = shared();
  if (runs.textRelay !== undefined) return;
  const url = databaseUrl();
  runs.textRelay = isPostgresUrl(url) && process.env.SWITCHBOARD_LISTEN !== "false" ? startRunTextRelay(url, { log: (line) => console.warn(`runs: ${line}`) }) : null;
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
  await runs.textRelay?.close();
  await runs.service?.db.close();
}
