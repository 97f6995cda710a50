import pg from "pg";
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
  let client: pg.Client | null = null;
  let closed = false;
  let listening = false;
  let retryMs = 250;
  let retryTimer: NodeJS.Timeout | undefined;
  let reported = false;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, keepAlive: true });
    next.on("error", () => undefined); // followed by "end", which reconnects
    next.on("notification", (message) => {
      if (message.channel === runWakeChannel) wakeAll();
    });
    next.on("end", () => {
      listening = false;
      if (client === next) client = null;
      schedule();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${runWakeChannel}`);
    } catch (error) {
      next.removeAllListeners("end");
      await next.end().catch(() => undefined);
      if (!reported) options.log?.(`worker: cannot listen for queued runs (${(error as Error).message.split("\n")[0]}); polling until it can`);
      reported = true;
      schedule();
      return;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    listening = true;
    retryMs = 250;
    if (reported) options.log?.("worker: listening for queued runs again");
    reported = false;
    // Runs queued while nobody listened: look now rather than at the next poll.
    wakeAll();
  };
  const schedule = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, retryMs);
    retryTimer.unref?.();
    retryMs = Math.min(retryMs * 2, 5000);
  };

  const ready = connect();
  return {
    ready,
    get listening() {
      return listening;
    },
    subscribe(wake) {
      listeners.add(wake);
      return () => listeners.delete(wake);
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      await ready;
      const open = client;
      client = null;
      listening = false;
      if (open) {
        open.removeAllListeners("end");
        await open.end().catch(() => undefined);
      }
    },
  };
}
