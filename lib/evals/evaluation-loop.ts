import { setTimeout as sleep } from "node:timers/promises";
import type { DatasetRow } from "./dataset-rows";
import { type RowScore, scoreRow } from "./row-score";
import type { ScoreContext, Scorer } from "./scorers";

/** A dataset row still to finish in an evaluation; `runId` is set when its run was started before (a resumed evaluation). */
export interface PendingRow {
  row: DatasetRow;
  runId: string | null;
}

/** A row's run once it has ended, with what the table shows of it. */
export interface EndedRowRun {
  runId: string;
  status: string;
  outputs: Record<string, unknown>;
  error: string | null;
  durationMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
}

/** What the loop needs of the world: the store of the evaluation and the run service, behind one face. */
export interface EvaluationPorts {
  /** Rows not yet scored after `afterPosition` (-1 for all), in dataset order, at most `limit`. */
  pending(afterPosition: number, limit: number): Promise<PendingRow[]>;
  /**
   * Starts the row's run through the queue and records it with the row, at
   * most once per row: a row started before answers its first run.
   */
  start(row: DatasetRow): Promise<{ ok: true; runId: string } | { ok: false; error: string }>;
  /** A row whose run the run service refused (its input, say): scored as a failure. */
  refused(row: DatasetRow, error: string): Promise<void>;
  /** Of these runs, the ones that have ended (completed, failed, cancelled, or waiting for a person). */
  ended(runIds: readonly string[]): Promise<EndedRowRun[]>;
  scored(row: DatasetRow, run: EndedRowRun, score: RowScore): Promise<void>;
}

export interface EvaluationLoopOptions {
  scorers: readonly Scorer[];
  context: ScoreContext;
  /** Rows whose runs are started and not yet scored, at most (the window that bounds memory and queue depth). */
  maxInFlight: number;
  /** Rows read from the store at a time. */
  pageSize?: number;
  /** How often the runs in flight are looked at. */
  pollMs?: number;
  signal?: AbortSignal;
  onRow?: (progress: { position: number; pass: boolean; done: number }) => void;
}

export interface EvaluationLoopResult {
  /** Rows scored in this pass (a refused row included). */
  done: number;
  /** True when `signal` stopped it before every row was scored. */
  stopped: boolean;
}

/**
 * Runs an evaluation's remaining rows: starts each row's run (at most
 * `maxInFlight` unscored at once, reading the rows page by page, so a
 * dataset of any size is never in memory whole), waits for the runs to end,
 * scores each and records it. A row started before (an evaluation resumed
 * after its process was killed) is followed, not started again.
 */
export async function runEvaluationLoop(ports: EvaluationPorts, options: EvaluationLoopOptions): Promise<EvaluationLoopResult> {
  const pageSize = options.pageSize ?? 100;
  const inFlight = new Map<string, DatasetRow>();
  let done = 0;
  let after = -1;
  const finish = async (row: DatasetRow, run: EndedRowRun) => {
    const verdict = await scoreRow(options.scorers, row.expected, run, options.context);
    await ports.scored(row, run, verdict);
    done += 1;
    options.onRow?.({ position: row.position, pass: verdict.pass, done });
  };
  const settle = async () => {
    for (;;) {
      const ended = await ports.ended([...inFlight.keys()]);
      for (const run of ended) {
        const row = inFlight.get(run.runId);
        if (!row) continue;
        inFlight.delete(run.runId);
        await finish(row, run);
      }
      if (ended.length > 0 || options.signal?.aborted) return;
      await pause(options.pollMs ?? 100, options.signal);
    }
  };
  for (;;) {
    const page = await ports.pending(after, pageSize);
    for (const pending of page) {
      after = pending.row.position;
      while (inFlight.size >= options.maxInFlight && !options.signal?.aborted) await settle();
      if (options.signal?.aborted) return { done, stopped: true };
      const runId = pending.runId ?? (await startRow(ports, pending.row));
      if (runId === null) {
        done += 1;
        options.onRow?.({ position: pending.row.position, pass: false, done });
        continue;
      }
      inFlight.set(runId, pending.row);
    }
    if (page.length < pageSize) break;
  }
  while (inFlight.size > 0 && !options.signal?.aborted) await settle();
  return { done, stopped: inFlight.size > 0 };
}

async function startRow(ports: EvaluationPorts, row: DatasetRow): Promise<string | null> {
  const started = await ports.start(row);
  if (started.ok) return started.runId;
  await ports.refused(row, started.error);
  return null;
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return sleep(ms, undefined, signal ? { signal } : {}).catch(() => undefined);
}
