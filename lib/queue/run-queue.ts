/**
 * The queue of runs, as a worker sees it: take runs, keep them (heartbeat),
 * hand them back. A run is held by one worker at a time through a lease on
 * its row: a worker that stops renewing it (killed, cut off) loses the run
 * to another once the lease has expired. The database adapter serves both
 * SQLite and Postgres; on Postgres, LISTEN/NOTIFY carries the wake-ups.
 */
export interface RunQueue {
  /** Takes up to `limit` runs: queued ones first, then runs whose holder's lease expired. */
  claim(workerId: string, limit: number): Promise<ClaimedRun[]>;
  /** Renews the leases of the runs this worker holds; says which it lost and which someone asked to cancel. */
  heartbeat(workerId: string, runIds: readonly string[]): Promise<Heartbeat>;
  /** Hands a run back unfinished (the worker is stopping): queued again, for any worker. Only while this claim still holds it. */
  release(claim: ClaimedRun): Promise<void>;
  /** Resolves when there may be work (a wake-up, or the poll interval passed). */
  waitForWork(signal: AbortSignal): Promise<void>;
  /** Ends this process's waits for work at once (a run was queued here, or a slot came free). */
  wake?(): void;
  close(): Promise<void>;
}

export interface ClaimedRun {
  runId: string;
  /** The worker that claimed it; with resumeCount, the claim's fencing token (the journal refuses its writes once another claim replaced it). */
  workerId: string;
  /** Times the run was taken up again after it had started; 0 for a fresh run. */
  resumeCount: number;
}

export interface Heartbeat {
  /** Runs another worker took over (this one's lease had expired): stop working on them at once. */
  lost: string[];
  /** Runs someone asked to cancel (from any process). */
  cancelRequested: string[];
}

export interface QueueTimings {
  /** How long a lease lasts without a heartbeat; another worker takes the run over after it. Default 10 s. */
  leaseMs: number;
  /** How often a worker renews its leases and looks for cancels. Default 500 ms (a cancel lands within about a second). */
  heartbeatMs: number;
  /** How often an idle worker looks for runs when nothing woke it. Default 200 ms. */
  pollMs: number;
}

export const defaultQueueTimings: QueueTimings = { leaseMs: 10_000, heartbeatMs: 500, pollMs: 200 };

/** Timings from SWITCHBOARD_LEASE_SECONDS, SWITCHBOARD_HEARTBEAT_MS and SWITCHBOARD_POLL_MS, else the defaults. */
export function queueTimingsFromEnvironment(env: NodeJS.ProcessEnv = process.env): QueueTimings {
  const number = (value: string | undefined, fallback: number, scale = 1) => {
    const parsed = Number(value);
    return value !== undefined && Number.isFinite(parsed) && parsed > 0 ? parsed * scale : fallback;
  };
  return {
    leaseMs: number(env.SWITCHBOARD_LEASE_SECONDS, defaultQueueTimings.leaseMs, 1000),
    heartbeatMs: number(env.SWITCHBOARD_HEARTBEAT_MS, defaultQueueTimings.heartbeatMs),
    pollMs: number(env.SWITCHBOARD_POLL_MS, defaultQueueTimings.pollMs),
  };
}
