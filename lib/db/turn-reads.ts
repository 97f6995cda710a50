import type { Prisma } from "../generated/prisma/client";
import { type PrismaClient, dialectOf } from "./create-client";
import { fromJsonText } from "./json-text";
import { placeStep, type TraceTurn, type RunTimeline, turnRowOf } from "../trace";

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

/**
 * Each node run's turns' places among its calls (the first answer's
 * `turnPlaces`), in the tree's order; within a range, only the turns
 * written in it (they follow every turn written before, see above). The
 * database joins each node run's places into one text, in the index's
 * order: one row per node run, however many turns.
 */
export async function readTurnPlaces(db: PrismaClient, runId: string, range: WriteRange = {}): Promise<Record<string, number[]>> {
  // A node run's places in the tree's order are its turns' places sorted: turns that tie on a place have the same
  // number. So the whole run's places come from the index alone; a range's few turns are looked up by their count.
  type Row = { group: string; places: string };
  const postgres = dialectOf(db) === "postgres";
  let rows: Row[];
  if (range.after === undefined && range.upTo === undefined) {
    rows = postgres
      ? await db.$queryRaw<Row[]>`SELECT "turnNodeRunId" AS "group", string_agg("turnCallsBefore"::text, ',' ORDER BY "turnCallsBefore") AS "places" FROM "RunStep" WHERE "runId" = ${runId} AND "turnNodeRunId" IS NOT NULL GROUP BY "turnNodeRunId"`
      : await db.$queryRaw<Row[]>`SELECT "turnNodeRunId" AS "group", group_concat("turnCallsBefore", ',' ORDER BY "turnCallsBefore") AS "places" FROM "RunStep" WHERE "runId" = ${runId} AND "turnNodeRunId" IS NOT NULL GROUP BY "turnNodeRunId"`;
  } else {
    const after = range.after ?? -1;
    const upTo = range.upTo ?? 2_147_483_647; // the largest INTEGER: a bound Postgres can compare
    rows = postgres
      ? await db.$queryRaw<Row[]>`SELECT "turnNodeRunId" AS "group", string_agg("turnCallsBefore"::text, ',' ORDER BY "turnCallsBefore") AS "places" FROM "RunStep" WHERE "runId" = ${runId} AND "sequence" > ${after} AND "sequence" <= ${upTo} AND "turnNodeRunId" IS NOT NULL GROUP BY "turnNodeRunId"`
      : await db.$queryRaw<Row[]>`SELECT "turnNodeRunId" AS "group", group_concat("turnCallsBefore", ',' ORDER BY "turnCallsBefore") AS "places" FROM "RunStep" WHERE "runId" = ${runId} AND "sequence" > ${after} AND "sequence" <= ${upTo} AND "turnNodeRunId" IS NOT NULL GROUP BY "turnNodeRunId"`;
  }
  return Object.fromEntries(rows.map((row) => [row.group, row.places.split(",").map(Number)]));
}

/** How many turns a node run had written up to a write count. */
export async function countTurnsUpTo(db: PrismaClient, runId: string, nodeRunId: string, upTo: number): Promise<number> {
  // All of the node run's turns from the index, less the few written after: no pass over the turns.
  const [all, later] = await Promise.all([db.runStep.count({ where: { runId, turnNodeRunId: nodeRunId } }), db.runStep.count({ where: { runId, sequence: { gt: upTo }, turnNodeRunId: nodeRunId } })]);
  return all - later;
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
    const recorded = turnRowOf(fromJsonText(row.value));
    if (!recorded) continue;
    const { contextKey: _contextKey, sentResults: _sent, ...turn } = recorded;
    turns.push({ ...placeStep(timeline, { ...turn, stepKey: row.key }), callsBefore: row.turnCallsBefore ?? turn.callsBefore ?? 0 });
  }
  return turns;
}
