import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { ClaimedRun, QueueTimings, RunQueue } from "./run-queue";

/** What running one claimed run means; the worker does not know it is the engine. */
export type ExecuteRun = (run: ClaimedRun, signals: RunSignals) => Promise<"finished" | "interrupted">;

export interface RunSignals {
  /** Someone cancelled the run: it ends cancelled. */
  cancel: AbortSignal;
  /** The worker stops holding it (stopping, or the run was taken over): it stops at its next step, unfinished. */
  stop: AbortSignal;
}

export interface RunWorkerOptions {
  queue: RunQueue;
  execute: ExecuteRun;
  timings: QueueTimings;
  /** Runs held at once. Default 4. */
  concurrency?: number;
  workerId?: string;
  /** One line per event worth a log line (took over, lost, cancelled, stopping). */
  log?: (line: string) => void;
}

/** `host:pid:short-id`: which worker holds a run, as the app shows it. */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * A worker: takes runs from the queue, runs them, renews their leases on
 * every heartbeat, aborts a run someone cancelled (from any process) or that
 * another worker took over, and on stop hands back what it still holds.
 */
export class RunWorker {
  readonly workerId: string;
  private readonly held = new Map<string, { cancel: AbortController; stop: AbortController; done: Promise<void> }>();
  private readonly stopping = new AbortController();
  /** Aborted once the worker has stopped and holds nothing: ends the heartbeat's wait at once. */
  private readonly stopped = new AbortController();
  private loops: Promise<void>[] = [];

  constructor(private readonly options: RunWorkerOptions) {
    this.workerId = options.workerId ?? newWorkerId();
  }

  get running(): number {
    return this.held.size;
  }

  start(): void {
    this.loops = [this.claimLoop(), this.heartbeatLoop()];
  }

  /**
   * Stops taking runs. With `handBack` (SIGTERM), the runs still held are
   * aborted at their next step and queued again for another worker; without
   * it, they are finished first.
   */
  async stop(options: { handBack: boolean } = { handBack: true }): Promise<void> {
    this.stopping.abort();
    if (options.handBack) {
      for (const run of this.held.values()) run.stop.abort();
    }
    await Promise.allSettled([...this.held.values()].map((run) => run.done));
    this.stopped.abort();
    await Promise.allSettled(this.loops);
  }

  private async claimLoop(): Promise<void> {
    const concurrency = this.options.concurrency ?? 4;
    while (!this.stopping.signal.aborted) {
      const free = concurrency - this.held.size;
      if (free > 0) {
        try {
          const claimed = await this.options.queue.claim(this.workerId, free);
          for (const run of claimed) this.begin(run);
          if (claimed.length > 0) continue;
        } catch (error) {
          this.options.log?.(`worker ${this.workerId}: cannot take runs: ${firstLine(error)}; retrying`);
        }
      }
      await this.options.queue.waitForWork(this.stopping.signal).catch(() => undefined);
    }
  }

  private begin(run: ClaimedRun): void {
    if (run.resumeCount > 0) this.options.log?.(`worker ${this.workerId}: resuming run ${run.runId} (resume ${run.resumeCount})`);
    const entry = { cancel: new AbortController(), stop: new AbortController(), done: Promise.resolve() };
    entry.done = this.options
      .execute(run, { cancel: entry.cancel.signal, stop: entry.stop.signal })
      .then(async (result) => {
        // Unfinished: give it back so any worker (this one included) picks it up. A run another worker
        // took over is not this worker's to give (release only touches runs it still holds). When the
        // database is gone, the lease simply expires and the run is taken up once it is back.
        if (result === "interrupted") await this.options.queue.release(run).catch(() => undefined);
      })
      .catch((error: unknown) => this.options.log?.(`worker ${this.workerId}: run ${run.runId} stopped: ${firstLine(error)}`))
      .finally(() => {
        if (this.held.get(run.runId) === entry) this.held.delete(run.runId);
        // A slot came free: claim the next run now, not at the next poll.
        this.options.queue.wake?.();
      });
    // A lease that lapsed under load may be claimed again by this same worker: the new claim supersedes
    // the old one, whose writes its fencing token now refuses; the old one stops at its next step.
    this.held.get(run.runId)?.stop.abort();
    this.held.set(run.runId, entry);
  }

  private async heartbeatLoop(): Promise<void> {
    while (!this.stopping.signal.aborted || this.held.size > 0) {
      await sleep(this.options.timings.heartbeatMs, this.stopped.signal);
      if (this.held.size === 0) continue;
      try {
        const beat = await this.options.queue.heartbeat(this.workerId, [...this.held.keys()]);
        for (const runId of beat.lost) {
          this.options.log?.(`worker ${this.workerId}: run ${runId} was taken over by another worker; stopping it here`);
          this.held.get(runId)?.stop.abort();
        }
        for (const runId of beat.cancelRequested) this.held.get(runId)?.cancel.abort();
      } catch (error) {
        this.options.log?.(`worker ${this.workerId}: heartbeat failed: ${firstLine(error)}`);
      }
    }
  }
}

/** An unref'd wait (a worker alone does not keep its process alive) that an abort ends early. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref?.();
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}
