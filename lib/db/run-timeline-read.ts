import type { PrismaClient } from "./create-client";
import { fromJsonText } from "./json-text";
import { stableId } from "../run-model";
import { buildRunTimeline, type NodeRunRecord, type RunRecord, type RunTimeline } from "../trace";

/**
 * A run's timeline (lib/trace/run-timeline.ts) from its rows: when each
 * attempt of the run wrote its first and last row, each node run's first
 * step that ran in this run, and the journal's waits. A few small queries,
 * whatever the size of the run: the turns' starts are columns of their
 * rows (lib/db/run-aggregates.ts), so no turn is parsed.
 */
export async function readRunTimeline(db: PrismaClient, run: RunRecord, nodeRuns: ReadonlyArray<Pick<NodeRunRecord, "id" | "startedAt" | "endedAt">>, readAt: string): Promise<RunTimeline> {
  const runId = run.id;
  const since = new Date(run.startedAt);
  const [firstSteps, attemptRows, waitRows] = await Promise.all([
    // Only a fork's node runs copied from its parent are placed by their first live step.
    run.forkedFrom ? readFirstLiveSteps(db, runId, since) : { callStarts: [], turnStarts: [] },
    (run.resumeCount ?? 0) > 0 ? readAttempts(db, runId, since) : readOnlyAttempt(db, runId, since),
    db.runStep.findMany({ where: { runId, kind: { in: ["waiting", "decision"] } }, select: { key: true, value: true, recordedAt: true, sequence: true } }),
  ]);
  const { callStarts, turnStarts } = firstSteps;
  const { callAttempts, stepAttempts } = attemptRows;
  const firstLiveStep: Record<string, string> = {};
  const earlier = (nodeRunId: string, at: string) => {
    if (at >= run.startedAt && (firstLiveStep[nodeRunId] === undefined || at < firstLiveStep[nodeRunId])) firstLiveStep[nodeRunId] = at;
  };
  for (const row of callStarts) if (row.nodeRunId && row._min.startedAt) earlier(row.nodeRunId, row._min.startedAt.toISOString());
  for (const row of turnStarts) if (row.turnNodeRunId && row._min.turnStartedAt) earlier(row.turnNodeRunId, row._min.turnStartedAt.toISOString());
  const attempts = new Map<number, { attempt: number; first: string; last: string }>();
  const widen = (attempt: number, first: Date | null, last: Date | null) => {
    if (!first || !last) return;
    const current = attempts.get(attempt);
    const [a, b] = [first.toISOString(), last.toISOString()];
    attempts.set(attempt, current ? { attempt, first: a < current.first ? a : current.first, last: b > current.last ? b : current.last } : { attempt, first: a, last: b });
  };
  for (const row of [...callAttempts, ...stepAttempts]) widen(row.attempt, row._min.first, row._max.last);
  return buildRunTimeline({
    run,
    readAt,
    nodeRuns,
    firstLiveStep,
    attempts: [...attempts.values()],
    waitEntries: waitRows.map((row) => ({ key: row.key, value: fromJsonText(row.value), recordedAt: row.recordedAt.toISOString(), sequence: row.sequence })),
    nodeRunIdOf: (key) => stableId(runId, key),
  });
}

/** Each node run's first call and first model turn that ran in this run (at or after its start). */
async function readFirstLiveSteps(db: PrismaClient, runId: string, since: Date) {
  const [callStarts, turnStarts] = await Promise.all([
    db.toolCall.groupBy({ by: ["nodeRunId"], where: { runId, startedAt: { gte: since } }, _min: { startedAt: true } }),
    db.runStep.groupBy({ by: ["turnNodeRunId"], where: { runId, turnNodeRunId: { not: null }, recordedAt: { gte: since }, turnStartedAt: { gte: since } }, _min: { turnStartedAt: true } }),
  ]);
  return { callStarts, turnStarts };
}

type AttemptRow = { attempt: number; _min: { first: Date | null }; _max: { last: Date | null } };

/** When each attempt of a resumed run wrote its first and last call and step. */
async function readAttempts(db: PrismaClient, runId: string, since: Date): Promise<{ callAttempts: AttemptRow[]; stepAttempts: AttemptRow[] }> {
  const [calls, steps] = await Promise.all([
    db.toolCall.groupBy({ by: ["attempt"], where: { runId, startedAt: { gte: since } }, _min: { startedAt: true }, _max: { startedAt: true } }),
    // Entries written beside the journal (a person's choice or answer: sequence 0) are no work of the run's.
    db.runStep.groupBy({ by: ["attempt"], where: { runId, recordedAt: { gte: since }, sequence: { gt: 0 } }, _min: { recordedAt: true }, _max: { recordedAt: true } }),
  ]);
  return {
    callAttempts: calls.map((row) => ({ attempt: row.attempt, _min: { first: row._min.startedAt }, _max: { last: row._max.startedAt } })),
    stepAttempts: steps.map((row) => ({ attempt: row.attempt, _min: { first: row._min.recordedAt }, _max: { last: row._max.recordedAt } })),
  };
}

/**
 * A run never resumed has one attempt, and only its first row counts (its
 * queue wait ends there; gaps are between attempts): two reads by index,
 * not a pass over the run's rows.
 */
async function readOnlyAttempt(db: PrismaClient, runId: string, since: Date): Promise<{ callAttempts: AttemptRow[]; stepAttempts: AttemptRow[] }> {
  const [call, step] = await Promise.all([
    db.toolCall.findFirst({ where: { runId, startedAt: { gte: since } }, orderBy: { startedAt: "asc" }, select: { startedAt: true } }),
    db.runStep.findFirst({ where: { runId, sequence: { gt: 0 }, recordedAt: { gte: since } }, orderBy: { sequence: "asc" }, select: { recordedAt: true } }),
  ]);
  const only = (at: Date | undefined): AttemptRow[] => (at ? [{ attempt: 0, _min: { first: at }, _max: { last: at } }] : []);
  return { callAttempts: only(call?.startedAt), stepAttempts: only(step?.recordedAt) };
}

/**
 * The id of a fork's copied call in the run it came from: a call at the top
 * level has the parent's id for the same key; a sub-flow's key names the
 * fork's own ids, so there is none to give.
 */
export function originCallIdOf(timeline: RunTimeline): (key: string) => string | undefined {
  const from = timeline.replay?.fromRunId;
  return (key) => (from && !/[0-9a-f]{8}-[0-9a-f]{4}-/.test(key) ? stableId(from, key) : undefined);
}
