import type { Prisma } from "../generated/prisma/client";
import type { PrismaClient } from "./create-client";
import { fromJsonText } from "./json-text";
import type { ModelTurnRow } from "../trace/model-turns";
import { placeStep } from "../trace/run-timeline";
import type { TraceTurn } from "../trace/trace-tree";
import type { RunTimeline } from "../trace/trace-types";

/**
 * A run's model turns as the trace shows them, read by the columns the
 * writers keep beside each turn (lib/db/run-aggregates.ts): a node run's
 * turns are in the tree's order, by their place among the node run's calls
 * (how many were written before the turn), then the engine's count, then
 * their start. A turn's place never changes once written and new turns
 * join at the end, so a turn's number in its node run never moves either.
 * Only the turns of a page are parsed.
 */

/** The tree's order of a node run's turns: the index (runId, turnNodeRunId, turnCallsBefore, turnSequence) serves it. */
const turnOrder = [{ turnCallsBefore: "asc" }, { turnSequence: "asc" }, { turnStartedAt: "asc" }, { key: "asc" }] satisfies Prisma.RunStepOrderByWithRelationInput[];

/** Write counts bounding a read: rows written after `after`, up to `upTo` (both optional). */
export interface WriteRange {
  after?: number;
  upTo?: number;
}

function sequenceWithin(range: WriteRange): Prisma.IntFilter | undefined {
  if (range.after === undefined && range.upTo === undefined) return undefined;
  return { ...(range.after !== undefined ? { gt: range.after } : {}), ...(range.upTo !== undefined ? { lte: range.upTo } : {}) };
}

/**
 * Each node run's turns' places among its calls (the first answer's
 * `turnPlaces`), in the tree's order; within a range, only the turns
 * written in it (they follow every turn written before, see above).
 */
export async function readTurnPlaces(db: PrismaClient, runId: string, range: WriteRange = {}): Promise<Record<string, number[]>> {
  const sequence = sequenceWithin(range);
  const rows = await db.runStep.findMany({
    where: { runId, turnNodeRunId: { not: null }, ...(sequence ? { sequence } : {}) },
    orderBy: [{ turnNodeRunId: "asc" }, ...turnOrder],
    select: { turnNodeRunId: true, turnCallsBefore: true },
  });
  const places: Record<string, number[]> = {};
  for (const row of rows) (places[row.turnNodeRunId!] ??= []).push(row.turnCallsBefore ?? 0);
  return places;
}

/** How many turns each node run had written up to a write count (all of them without one). */
export async function countTurns(db: PrismaClient, runId: string, upTo?: number): Promise<Record<string, number>> {
  const rows = await db.runStep.groupBy({ by: ["turnNodeRunId"], where: { runId, turnNodeRunId: { not: null }, ...(upTo !== undefined ? { sequence: { lte: upTo } } : {}) }, _count: { _all: true } });
  return Object.fromEntries(rows.map((row) => [row.turnNodeRunId!, row._count._all]));
}

/** A page of one node run's turns, numbered as `readTurnPlaces` orders them, as the page shows them (no context keys, no sent results), placed by the timeline. */
export async function readTurnPage(db: PrismaClient, runId: string, timeline: RunTimeline, page: { group: string; offset: number; limit: number }): Promise<TraceTurn[]> {
  const rows = await db.runStep.findMany({
    where: { runId, turnNodeRunId: page.group },
    orderBy: turnOrder,
    skip: page.offset,
    take: page.limit,
    select: { key: true, value: true, turnCallsBefore: true },
  });
  const turns: TraceTurn[] = [];
  for (const row of rows) {
    const recorded = (fromJsonText(row.value) as { row?: Omit<ModelTurnRow, "runId" | "stepKey"> } | null)?.row;
    if (!recorded) continue;
    const { contextKey: _contextKey, sentResults: _sent, ...turn } = recorded;
    turns.push({ ...placeStep(timeline, { ...turn, stepKey: row.key }), callsBefore: row.turnCallsBefore ?? turn.callsBefore ?? 0 });
  }
  return turns;
}
