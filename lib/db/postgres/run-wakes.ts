import { listenOnChannel } from "./channel-listener";
import type { SqlDatabase } from "../sql/sql-database";

/** The Postgres channel that carries "a run was queued" between processes (its payload: the run's id, or '' for several). */
export const runWakeChannel = "switchboard_runs";

/** What wakes a waiting worker besides its poll and this process's own enqueues: on Postgres, a NOTIFY from any process (below). */
export interface WakeSource {
  subscribe(wake: () => void): () => void;
  close?(): Promise<void>;
}

/**
 * Tells every listening worker, in any process, that a run was queued: one
 * NOTIFY on the database that holds the run, sent after its row is
 * committed. Only a hint: a worker that misses it finds the run on its poll.
 */
export async function notifyRunQueued(db: SqlDatabase, runId: string): Promise<void> {
  if (db.dialect !== "postgres") return;
  await db.query(`SELECT pg_notify(?, ?)`, [runWakeChannel, runId]);
}

export interface RunWakeListener extends WakeSource {
  /** Resolves once the first LISTEN is in place (or failed: polling carries on meanwhile). */
  ready: Promise<void>;
  /** Whether the LISTEN is in place now. */
  readonly listening: boolean;
  close(): Promise<void>;
}

/**
 * Scale-out mode's wake-ups: one dedicated connection that LISTENs on
 * `switchboard_runs`, so an idle worker claims a run the moment any process
 * (the web app, `workflow start`, another worker's schedule tick) queues it,
 * instead of at its next poll. The Run row stays the record: its lease
 * decides who holds a run. A dropped connection is reopened (backing off up
 * to 5 s); on reopening every listener is woken once, since notifications
 * sent meanwhile were lost.
 */
export function listenForRuns(url: string, options: { log?: (line: string) => void } = {}): RunWakeListener {
  const listeners = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of [...listeners]) wake();
  };
  const log = options.log;
  // Runs queued while nobody listened are looked for at once (onListening) rather than at the next poll.
  const channel = listenOnChannel(url, runWakeChannel, { what: "queued runs (polling meanwhile)", onNotification: wakeAll, onListening: wakeAll, ...(log ? { log: (line: string) => log(`worker: ${line}`) } : {}) });
  return {
    ready: channel.ready,
    get listening() {
      return channel.listening;
    },
    subscribe(wake) {
      listeners.add(wake);
      return () => listeners.delete(wake);
    },
    close: () => channel.close(),
  };
}
